import type { Resolver } from '@checkline/healthcheck';
import { createTargetPolicy, pinnedAgent, TargetRefusedError } from '@checkline/healthcheck';
import type { RequestInit as UndiciRequestInit } from 'undici';
import { fetch as undiciFetch } from 'undici';
import { readAtMost } from './read-at-most.ts';

export interface EgressOptions {
  /**
   * Let calls reach loopback, private, link-local, CGNAT and reserved addresses (on-premise
   * receivers; WEBHOOK_ALLOW_PRIVATE). The cloud metadata services stay refused. Default false.
   */
  allowPrivate?: boolean;
  /** How host names become addresses. Default: the system's resolver. */
  resolve?: Resolver;
}

export type EgressRequestInit = RequestInit & {
  /** The whole call, vetting and reading the answer included. Default 10 000. */
  timeoutMs?: number;
};

/** The one way channels call out to services (and to URLs users give them). */
export interface Egress {
  /**
   * Throws a `TargetRefusedError` (its message is for the person who gave the URL) unless `url`
   * is http(s), carries no credentials and resolves only to addresses the policy allows; DNS
   * errors as they are.
   */
  vet(url: string, options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Vets `url`, then requests it connecting only to the addresses just judged (no second DNS
   * answer can redirect it). Redirects are answered, never followed. The answer's body is read
   * in full before it is answered (its first MiB).
   */
  fetch(url: string, init?: EgressRequestInit): Promise<Response>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Services answer a status and a reason; no channel needs more than this of an answer. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** Statuses whose answer has no body, which `new Response` refuses to give one. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** `url` as a destination a channel may call, or a refusal saying why not. */
function destinationOf(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefusedError('not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TargetRefusedError(`${parsed.protocol} URLs are not allowed, only http and https`);
  }
  if (parsed.username || parsed.password) {
    throw new TargetRefusedError('URLs with credentials (user:password@) are not allowed');
  }
  return parsed;
}

const timedOut = (ms: number) =>
  Object.assign(new Error(`timed out after ${ms} ms`), { code: 'ETIMEDOUT' });

/**
 * The egress guard every HTTP channel uses: the health-check target policy with the non-public
 * refusal set (or the metadata set when private addresses are allowed), and its pinned agent.
 */
export function createEgress(options: EgressOptions = {}): Egress {
  const policy = createTargetPolicy({
    ...(options.resolve && { resolve: options.resolve }),
    builtIn: options.allowPrivate ? 'metadata' : 'non-public',
    allowSetting: options.allowPrivate ? null : 'WEBHOOK_ALLOW_PRIVATE',
  });

  return {
    async vet(url, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
      const destination = destinationOf(url);
      await policy.vet(destination.hostname, AbortSignal.timeout(timeoutMs));
    },

    async fetch(url, init = {}) {
      const { timeoutMs = DEFAULT_TIMEOUT_MS, signal, ...request } = init;
      const destination = destinationOf(url);
      const deadline = AbortSignal.timeout(timeoutMs);
      const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const agent = pinnedAgent(policy);
      try {
        await agent.vet(destination.hostname, aborted);
        const response = await undiciFetch(destination, {
          ...(request as UndiciRequestInit),
          redirect: 'manual',
          signal: aborted,
          dispatcher: agent.dispatcher,
        });
        // Cast: servers that compile with the DOM lib see undici's stream as another ReadableStream.
        const body = await readAtMost(
          response.body as ReadableStream<Uint8Array> | null,
          MAX_ANSWER_BYTES,
        );
        return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers],
        });
      } catch (error) {
        if (deadline.aborted && !signal?.aborted) throw timedOut(timeoutMs);
        throw error;
      } finally {
        await agent.close();
      }
    },
  };
}
