import { Agent } from 'undici';
import { normalizeHost } from './address.ts';
import type { TargetPolicy, VettedTarget } from './target-policy.ts';
import { createOriginSlots } from './origin-slots.ts';

export interface PinnedAgentOptions {
  /**
   * Sockets kept per origin at most, and as many slots (`slots`) for requests to wait in.
   * Default: unbounded.
   */
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
  const slots = createOriginSlots(options.connectionsPerOrigin ?? Number.POSITIVE_INFINITY);
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
    /**
     * One slot per connection of each origin: a caller holding one never waits inside the pool,
     * so the wait for a connection is the wait for a slot, measurable apart from the request.
     */
    slots,
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

/**
 * Sockets per origin the shared agent keeps unless its first caller sizes it; runs to one origin
 * beyond them wait for a slot.
 */
export const CONNECTIONS_PER_ORIGIN = 32;

const shared = new WeakMap<TargetPolicy, PinnedAgent>();

/**
 * The agent every HTTP check under `policy` sends through, so checks of one origin reuse its
 * kept-alive connections (bounded by `connectionsPerOrigin`, CONNECTIONS_PER_ORIGIN unless the
 * first call names it: the health check plugin sizes it to the runs per host its scheduler
 * allows). One per policy: a connection opened under one policy never serves another.
 */
export function sharedPinnedAgent(
  policy: TargetPolicy,
  connectionsPerOrigin = CONNECTIONS_PER_ORIGIN,
): PinnedAgent {
  let agent = shared.get(policy);
  if (!agent) {
    agent = pinnedAgent(policy, { connectionsPerOrigin });
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
