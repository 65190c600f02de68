import type { HealthStatus } from './schemas.ts';

/**
 * A system's health from the latest outcome of each of its checks (checks never run are left
 * out): a maintenance window overrides everything; no outcome is `unknown`; all passing is
 * `healthy`, all failing `unhealthy`, a mix or any warning `degraded`.
 */
export function deriveHealthStatus(
  latestOutcomes: readonly ('pass' | 'warn' | 'fail')[],
  inMaintenance: boolean,
): HealthStatus {
  if (inMaintenance) return 'maintenance';
  if (latestOutcomes.length === 0) return 'unknown';
  const failing = latestOutcomes.filter((outcome) => outcome === 'fail').length;
  if (failing === latestOutcomes.length) return 'unhealthy';
  const passing = latestOutcomes.filter((outcome) => outcome === 'pass').length;
  return passing === latestOutcomes.length ? 'healthy' : 'degraded';
}
