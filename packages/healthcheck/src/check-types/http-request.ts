import type { Dispatcher } from 'undici';
import { request } from 'undici';
import type { PinnedAgent } from '@checkline/net';

/** Redirects a check follows at most, when it follows them. */
const MAX_REDIRECTS = 5;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Headers that carry credentials go to the configured origin only, never across a redirect. */
const credentialHeaders = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** Bodies up to this size are read to their end when discarded, so the connection is reused. */
const DRAIN_LIMIT_BYTES = 64 * 1024;
const DRAIN_TIMEOUT_MS = 1_000;

/**
 * Stops caring about an answer's body: a short rest is read in the background so the kept-alive
 * connection serves the next check; a longer or slower one closes the connection. The error the
 * stream reports for that is expected.
 */
export function discardBody(response: Dispatcher.ResponseData) {
  response.body.on('error', () => {});
  if (response.body.destroyed || response.body.readableEnded) return;
  response.body
    .dump({ limit: DRAIN_LIMIT_BYTES, signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS) })
    .catch(() => response.body.destroy());
}

export interface CheckRequest {
  url: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  followRedirects: boolean;
}

const withoutCredentials = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !credentialHeaders.has(name.toLowerCase())),
  );

/** The method after a redirect, as browsers do: 303 and a POST moved by 301/302 become GET. */
function methodAfter(status: number, method: Dispatcher.HttpMethod): Dispatcher.HttpMethod {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/**
 * Sends the check's request through `agent`, vetting each host right before connecting to it.
 * Redirects are followed here, hop by hop, so that every hop meets the target policy.
 */
export async function sendCheckRequest(
  check: CheckRequest,
  agent: PinnedAgent,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  let url = new URL(check.url);
  let { method, headers } = check;
  for (let hop = 0; ; hop += 1) {
    await agent.vet(url.hostname, signal);
    const response = await request(url, { method, headers, signal, dispatcher: agent.dispatcher });
    const location = response.headers.location;
    if (!check.followRedirects || !redirectStatuses.has(response.statusCode)) return response;
    if (typeof location !== 'string') return response;
    discardBody(response);
    if (hop === MAX_REDIRECTS) throw new Error(`Stopped after ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new Error(`Redirected to ${next.protocol} URL, which checks do not follow`);
    }
    if (next.origin !== url.origin) headers = withoutCredentials(headers);
    method = methodAfter(response.statusCode, method);
    url = next;
  }
}
