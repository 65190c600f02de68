import { Agent } from 'undici';
import { normalizeHost } from './address.ts';
import type { TargetPolicy, VettedTarget } from './target-policy.ts';

/**
 * An undici dispatcher that connects only to hosts vetted through it, and to each only at the
 * addresses the policy judged: its lookup answers from the vetted targets, never from DNS. A host
 * not vetted first cannot be reached at all. `close` when done with every response.
 */
export function pinnedAgent(policy: TargetPolicy) {
  const vetted = new Map<string, VettedTarget>();
  const dispatcher = new Agent({
    connect: {
      lookup(hostname, options, callback) {
        const target = vetted.get(normalizeHost(hostname));
        if (target) return target.lookup(hostname, options, callback);
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
      vetted.set(target.host, target);
      return target;
    },
    close: () => dispatcher.destroy(),
  };
}

export type PinnedAgent = ReturnType<typeof pinnedAgent>;
