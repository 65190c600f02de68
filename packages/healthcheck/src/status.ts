import type { HealthStatus } from './schemas.ts';

/**
 * A system's health from the latest outcome of each of its checks (checks never run are left
 * out): a maintenance window overrides everything; no outcome is `unknown`; all passing is
 * `healthy`, all failing `unhealthy`, a mix `degraded`.
 */
export function deriveHealthStatus(
  latestOutcomes: readonly ('pass' | 'fail')[],
  inMaintenance: boolean,
): HealthStatus {
  if (inMaintenance) return 'maintenance';
  if (latestOutcomes.length === 0) return 'unknown';
  const failing = latestOutcomes.filter((outcome) => outcome === 'fail').length;
  if (failing === 0) return 'healthy';
  return failing === latestOutcomes.length ? 'unhealthy' : 'degraded';
}
