import type { ApiClient } from '../../api/client.ts';
import type { HealthStatusName } from '../../ui/health-status.tsx';

export interface DashboardRow {
  id: string;
  name: string;
  tags: string[];
  /** Ids of the groups the system belongs to. */
  groupIds: string[];
  status: HealthStatusName;
  late: boolean;
}

const SYSTEMS_PAGE = 1000;
/** The most systems one bulk status call answers. */
const STATUS_BATCH = 500;

export interface DashboardData {
  rows: DashboardRow[];
  groups: { id: string; name: string }[];
}

/** Every item of a paged list, a page at a time. */
async function allPages<T>(
  readPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/**
 * Every system the caller may read with its health and groups: systems and groups a page at a
 * time, then their statuses in bulk (one call per 500 systems, never one per system).
 */
export async function loadDashboard(api: ApiClient): Promise<DashboardData> {
  const [systems, groups] = await Promise.all([
    allPages(async (cursor) => {
      const page = await api.catalog.getSystems({ limit: SYSTEMS_PAGE, cursor });
      return { items: page.systems, nextCursor: page.nextCursor };
    }),
    allPages(async (cursor) => {
      const page = await api.catalog.getGroups({ limit: SYSTEMS_PAGE, cursor });
      return { items: page.groups, nextCursor: page.nextCursor };
    }),
  ]);
  const groupIdsOf = new Map<string, string[]>();
  for (const group of groups) {
    for (const systemId of group.systemIds) {
      groupIdsOf.set(systemId, [...(groupIdsOf.get(systemId) ?? []), group.id]);
    }
  }

  const batches: string[][] = [];
  for (let start = 0; start < systems.length; start += STATUS_BATCH) {
    batches.push(systems.slice(start, start + STATUS_BATCH).map((system) => system.id));
  }
  const answers = await Promise.all(
    batches.map((systemIds) => api.healthcheck.getBulkSystemHealthStatus({ systemIds })),
  );
  const statusOf = new Map(
    answers.flatMap((answer) => answer.statuses).map((status) => [status.systemId, status]),
  );
  const rows = systems.map((system): DashboardRow => {
    const health = statusOf.get(system.id);
    return {
      id: system.id,
      name: system.name,
      tags: system.tags,
      groupIds: groupIdsOf.get(system.id) ?? [],
      status: health?.status ?? 'unknown',
      late: health?.checks.some((check) => check.late) ?? false,
    };
  });
  return {
    rows,
    groups: groups
      .map((group) => ({ id: group.id, name: group.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}
