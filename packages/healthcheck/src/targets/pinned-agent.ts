import { Agent } from 'undici';
import { normalizeHost } from './address.ts';
import type { TargetPolicy, VettedTarget } from './target-policy.ts';

export interface PinnedAgentOptions {
  /** Sockets kept per origin at most (runs beyond them wait for one). Default: unbounded. */
  connectionsPerOrigin?: number;
  /** Hosts remembered as vetted at most; the oldest is forgotten first. Default 10 000. */
  maxHosts?: number;
}

/**
 * An undici dispatcher that connects only to hosts vetted through it, and to each only at the
 * addresses the policy judged: its lookup answers from the vetted targets, never from DNS. A host
 * not vetted first cannot be reached at all. Every request vets its host right before it is sent
 * (sendCheckRequest), so a kept-alive connection was opened to an address the policy accepted,
 * and a host the policy refuses now is refused before any connection is reused. `close` when
 * done with every response.
 */
export function pinnedAgent(policy: TargetPolicy, options: PinnedAgentOptions = {}) {
  const maxHosts = options.maxHosts ?? 10_000;
  const vetted = new Map<string, VettedTarget>();
  const dispatcher = new Agent({
    ...(options.connectionsPerOrigin !== undefined && {
      connections: options.connectionsPerOrigin,
    }),
    connect: {
      lookup(hostname, lookupOptions, callback) {
        const target = vetted.get(normalizeHost(hostname));
        if (target) return target.lookup(hostname, lookupOptions, callback);
        const error = Object.assign(new Error(`${hostname} was not checked against the policy`), {
          code: 'ENOTFOUND',
        });
        callback(error, '', 0);
      },
    },
  });
  return {
    dispatcher,
    /** Judges `host`; connections to it then go only to the addresses judged. */
    async vet(host: string, signal: AbortSignal): Promise<VettedTarget> {
      const target = await policy.vet(host, signal);
      vetted.delete(target.host);
      vetted.set(target.host, target);
      if (vetted.size > maxHosts) vetted.delete(vetted.keys().next().value!);
      return target;
    },
    close: () => dispatcher.destroy(),
  };
}

export type PinnedAgent = ReturnType<typeof pinnedAgent>;

/** Sockets per origin the shared agent keeps; runs to one origin beyond them queue. */
export const CONNECTIONS_PER_ORIGIN = 32;

const shared = new WeakMap<TargetPolicy, PinnedAgent>();

/**
 * The agent every HTTP check under `policy` sends through, so checks of one origin reuse its
 * kept-alive connections (bounded by CONNECTIONS_PER_ORIGIN). One per policy: a connection
 * opened under one policy never serves another.
 */
export function sharedPinnedAgent(policy: TargetPolicy): PinnedAgent {
  let agent = shared.get(policy);
  if (!agent) {
    agent = pinnedAgent(policy, { connectionsPerOrigin: CONNECTIONS_PER_ORIGIN });
    shared.set(policy, agent);
  }
  return agent;
}

/** Closes the shared agent of `policy` (plugin stop); a later check opens a new one. */
export async function closeSharedPinnedAgent(policy: TargetPolicy) {
  const agent = shared.get(policy);
  shared.delete(policy);
  await agent?.close();
}
