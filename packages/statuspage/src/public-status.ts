import type { HealthStatus } from '@checkline/healthcheck';
import type { PublicStatus } from './public-schemas.ts';

const fromHealth: Record<HealthStatus, PublicStatus> = {
  healthy: 'operational',
  degraded: 'degraded',
  unhealthy: 'outage',
  maintenance: 'maintenance',
  unknown: 'unknown',
};

export const publicStatusOf = (status: HealthStatus | undefined): PublicStatus =>
  status === undefined ? 'unknown' : fromHealth[status];

// Unknown ranks lowest: a system without results yet does not darken the others.
const severity: Record<PublicStatus, number> = {
  unknown: -1,
  operational: 0,
  maintenance: 2,
  degraded: 3,
  outage: 4,
};

/** The worst known status of `statuses`; `unknown` when none is known. */
export const worstStatus = (statuses: readonly PublicStatus[]): PublicStatus =>
  statuses.reduce<PublicStatus | undefined>(
    (worst, status) => (worst === undefined || severity[status] > severity[worst] ? status : worst),
    undefined,
  ) ?? 'unknown';
