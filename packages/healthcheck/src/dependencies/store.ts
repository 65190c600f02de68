import { badRequest } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { and, asc, eq, or, sql } from 'drizzle-orm';
import { systemDependencies, systemStatuses } from '../db/schema.ts';
import type { DependencyEdge } from './cycle.ts';
import { findDependencyCycle } from './cycle.ts';

/** The systems `systemId` depends on, in id order. */
export async function readDependencies(db: Database, systemId: string): Promise<string[]> {
  const rows = await db
    .select({ id: systemDependencies.dependsOnSystemId })
    .from(systemDependencies)
    .where(eq(systemDependencies.systemId, systemId))
    .orderBy(asc(systemDependencies.dependsOnSystemId));
  return rows.map((row) => row.id);
}

/** Every edge reachable from `from` along dependencies (cycles end the walk: `union` dedups). */
async function reachableEdges(db: Database, from: readonly string[]): Promise<DependencyEdge[]> {
  if (from.length === 0) return [];
  const rows = await queryRows<{ system_id: string; depends_on_system_id: string }>(
    db,
    sql`
    with recursive reach(system_id, depends_on_system_id) as (
      select system_id, depends_on_system_id from ${systemDependencies}
        where system_id = any(${`{${from.join(',')}}`}::uuid[])
      union
      select d.system_id, d.depends_on_system_id from ${systemDependencies} d
        join reach r on d.system_id = r.depends_on_system_id
    )
    select system_id, depends_on_system_id from reach`,
  );
  return rows.map((row) => ({
    systemId: row.system_id,
    dependsOnSystemId: row.depends_on_system_id,
  }));
}

/** The systems of a cycle, those in `hidden` (and runs of them) shown as one `…`. */
function describeCycle(cycle: readonly string[], hidden: ReadonlySet<string>): string {
  const shown = cycle.map((id) => (hidden.has(id) ? '…' : id));
  return shown.filter((id, i) => id !== '…' || shown[i - 1] !== '…').join(' → ');
}

/**
 * Replaces the dependencies of `systemId` that the caller sees (those on systems in `hidden`,
 * which the caller may not see, stay); BAD_REQUEST naming the cycle it would close, with no
 * hidden system in it. Call in a transaction: writers are serialised so two changes cannot
 * close a cycle between them. Answers every dependency written, hidden ones included.
 */
export async function writeDependencies(
  db: Database,
  systemId: string,
  dependsOn: readonly string[],
  hidden: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('healthcheck.system_dependencies'))`);
  const kept = (await readDependencies(db, systemId)).filter((id) => hidden.has(id));
  const wanted = [...new Set([...dependsOn, ...kept])].sort();
  const cycle = findDependencyCycle(systemId, wanted, await reachableEdges(db, wanted));
  if (cycle) {
    const described = describeCycle(cycle, hidden);
    throw badRequest(`Dependency cycle: ${described}`, [
      { path: 'dependsOn', message: `Would close the cycle ${described}` },
    ]);
  }
  await db.delete(systemDependencies).where(eq(systemDependencies.systemId, systemId));
  if (wanted.length > 0) {
    await db
      .insert(systemDependencies)
      .values(wanted.map((dependsOnSystemId) => ({ systemId, dependsOnSystemId })));
  }
  return wanted;
}

/** Drops every dependency of and on a deleted system. */
export async function forgetDependencies(db: Database, systemId: string) {
  await db
    .delete(systemDependencies)
    .where(
      or(
        eq(systemDependencies.systemId, systemId),
        eq(systemDependencies.dependsOnSystemId, systemId),
      ),
    );
}

/** A dependency of `systemId` whose announced status is `unhealthy` now, if any. */
export async function unhealthyDependency(
  db: Database,
  systemId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: systemDependencies.dependsOnSystemId })
    .from(systemDependencies)
    .innerJoin(systemStatuses, eq(systemStatuses.systemId, systemDependencies.dependsOnSystemId))
    .where(and(eq(systemDependencies.systemId, systemId), eq(systemStatuses.status, 'unhealthy')))
    .orderBy(asc(systemDependencies.dependsOnSystemId))
    .limit(1);
  return row?.id;
}
