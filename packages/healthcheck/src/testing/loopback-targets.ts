import type { TargetPolicy } from '@checkline/net';
import { createTargetPolicy, TargetRefusedError } from '@checkline/net';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * The target policy for tests: loopback is allowed (the targets tests start), and any other host
 * is refused before it is resolved, so a test never reaches beyond the machine.
 */
export function loopbackTargets(): TargetPolicy {
  const policy = createTargetPolicy({ allow: ['127.0.0.0/8', '::1'] });
  return {
    async vet(host, signal) {
      if (!LOOPBACK_HOSTS.has(host.toLowerCase())) {
        throw new TargetRefusedError(`tests reach only loopback, not ${host}`);
      }
      return policy.vet(host, signal);
    },
  };
}
