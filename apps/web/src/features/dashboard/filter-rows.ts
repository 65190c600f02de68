import type { HealthStatusName } from '../../ui/health-status.tsx';
import type { DashboardRow } from './load-dashboard.ts';

export interface DashboardFilter {
  status: HealthStatusName | 'all';
  search: string;
  tag: string | null;
  /** A group's id. */
  group: string | null;
}

/** The rows the filter keeps: a status, a tag, a group, and a case-insensitive part of the name. */
export function filterRows(rows: readonly DashboardRow[], filter: DashboardFilter): DashboardRow[] {
  const needle = filter.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.status === 'all' || row.status === filter.status) &&
      (filter.tag === null || row.tags.includes(filter.tag)) &&
      (filter.group === null || row.groupIds.includes(filter.group)) &&
      (needle === '' || row.name.toLowerCase().includes(needle)),
  );
}

export function countByStatus(rows: readonly DashboardRow[]): Record<HealthStatusName, number> {
  const counts = { healthy: 0, degraded: 0, unhealthy: 0, unknown: 0, maintenance: 0 };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}
