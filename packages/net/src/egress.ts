import type { Socket } from 'node:net';
import type { RequestInit as UndiciRequestInit } from 'undici';
import { fetch as undiciFetch } from 'undici';
import { connectedSocket } from './connected-socket.ts';
import { pinnedAgent } from './pinned-agent.ts';
import { readAtMost } from './read-at-most.ts';
import type { Resolver } from './resolver.ts';
import { createTargetPolicy, TargetRefusedError } from './target-policy.ts';

export interface EgressOptions {
  /**
   * Let calls reach loopback, private, link-local, CGNAT and reserved addresses (on-premise
   * receivers; WEBHOOK_ALLOW_PRIVATE). The cloud metadata services stay refused. Default false.
   */
  allowPrivate?: boolean;
  /**
   * Hosts, addresses and ranges the operator named itself (an issuer from the environment), let
   * through whatever they resolve to; every other destination is judged as usual. Default none.
   */
  allow?: readonly string[];
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
  /**
   * Throws a `TargetRefusedError` unless `host` (a name or an address, not a URL) resolves only
   * to addresses the policy allows; DNS errors as they are. For host fields checked on save.
   */
  vetHost(host: string, options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Vets `host`, then opens a TCP connection to `port` at an address just judged (SMTP and other
   * protocols spoken over a plain socket). Nothing is dialled when the host is refused. The
   * timeout covers vetting and connecting; TLS, if any, is the caller's to start on the socket.
   */
  connect(host: string, port: number, options?: EgressConnectOptions): Promise<Socket>;
}

export interface EgressConnectOptions {
  /** Vetting and connecting. Default 10 000. */
  timeoutMs?: number;
  signal?: AbortSignal;
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
 * The egress guard every channel uses (HTTP calls and plain sockets): the health-check target policy with the non-public
 * refusal set (or the metadata set when private addresses are allowed), and its pinned agent.
 */
export function createEgress(options: EgressOptions = {}): Egress {
  const policy = createTargetPolicy({
    ...(options.resolve && { resolve: options.resolve }),
    ...(options.allow && { allow: options.allow }),
    builtIn: options.allowPrivate ? 'metadata' : 'non-public',
    allowSetting: options.allowPrivate ? null : 'WEBHOOK_ALLOW_PRIVATE',
  });

  return {
    async vet(url, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
      const destination = destinationOf(url);
      await policy.vet(destination.hostname, AbortSignal.timeout(timeoutMs));
    },

    async vetHost(host, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
      await policy.vet(host, AbortSignal.timeout(timeoutMs));
    },

    async connect(host, port, { timeoutMs = DEFAULT_TIMEOUT_MS, signal } = {}) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
      try {
        const target = await policy.vet(host, aborted);
        return await connectedSocket({ host, port, lookup: target.lookup }, aborted);
      } catch (error) {
        if (deadline.aborted && !signal?.aborted) throw timedOut(timeoutMs);
        throw error;
      }
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
