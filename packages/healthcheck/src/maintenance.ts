import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import type { Database } from '@checkline/db';
import { maintenanceContract } from '@checkline/maintenance/contract';

/** The ids among `systemIds` that an active maintenance window covers, read through `db`. */
export type MaintenanceLookup = (
  db: Database,
  systemIds: readonly string[],
) => Promise<ReadonlySet<string>>;

/**
 * Asks the maintenance plugin through its contract, as the service principal. `db` is the
 * caller's transaction when there is one: on PGlite a query beside an open transaction would
 * wait for it forever.
 */
export function maintenanceLookup(context: RequestContext): MaintenanceLookup {
  return async function systemsInMaintenance(db, systemIds) {
    if (systemIds.length === 0) return new Set();
    const maintenance = pluginClient({ ...context, db }, maintenanceContract);
    const { windows } = await maintenance.getBulkActiveWindows({ systemIds: [...systemIds] });
    const asked = new Set(systemIds);
    return new Set(windows.flatMap((window) => window.systemIds).filter((id) => asked.has(id)));
  };
}
