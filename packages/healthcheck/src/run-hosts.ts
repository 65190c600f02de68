import type { HealthCheckTypeRegistry } from './check-type.ts';
import type { ClaimedRun } from './claims.ts';

/** The hosts a run will contact, as its type names them (lower case, each once); none if unknown. */
export function targetHostsOf(types: HealthCheckTypeRegistry, run: ClaimedRun): string[] {
  try {
    const targets = types.get(run.type)?.targets?.(run.config) ?? [];
    return [...new Set(targets.map((target) => target.host.toLowerCase()))];
  } catch {
    // A config its type no longer reads: the run fails on its own; it is limited by owner only.
    return [];
  }
}
