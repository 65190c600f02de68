import { catalogSystemDirectory } from '@checkline/catalog';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import { maintenanceContract } from '@checkline/maintenance/contract';
import type { HealthFacts, NotificationSource, SystemFact } from '@checkline/notification-node';
import { healthcheckAccess } from '../access.ts';
import { healthStatusChanged } from '../events.ts';
import type { HealthStatusChange } from '../schemas.ts';

/** The delivery log's reason for a health alert held back by a maintenance window. */
export function suppressedByMaintenance(window: { id: string; title: string }): string {
  return `Suppressed: maintenance window "${window.title}" (${window.id}) covers the system`;
}

/** The delivery log's reason for a health alert put down to an unhealthy dependency. */
export function suppressedByDependency(systemId: string): string {
  return `Suppressed: caused by the outage of dependency ${systemId}`;
}

/** Why a health alert for `systemId` is held back: the active maintenance window covering it. */
async function maintenanceCovering(context: RequestContext, systemId: string) {
  const maintenance = pluginClient(context, maintenanceContract);
  const { windows } = await maintenance.getBulkActiveWindows({ systemIds: [systemId] });
  const window = windows.find((candidate) => candidate.systemIds.includes(systemId));
  return window && suppressedByMaintenance(window);
}

/** What a status change says: the system, the change, how long the status before lasted, why. */
export function statusChangeFacts(change: HealthStatusChange, system: SystemFact): HealthFacts {
  const previousSince = change.previousSince ?? null;
  return {
    kind: 'healthcheck.status_changed',
    system,
    previous: change.previous,
    current: change.current,
    changedAt: change.at,
    previousSince,
    previousDurationMs:
      previousSince === null
        ? null
        : Math.max(0, Date.parse(change.at) - Date.parse(previousSince)),
    failingChecks: (change.failingChecks ?? []).map((check) => ({
      id: check.healthCheckId,
      name: check.name,
      type: check.type,
      status: check.status,
      message: check.message === '' ? null : check.message,
      latencyMs: check.latencyMs,
      checkedAt: check.checkedAt,
    })),
  };
}

/** Health status changes as notification subscriptions hear them (kind `health`). */
export const statusChangeSource: NotificationSource<HealthStatusChange> = {
  id: 'status-changes',
  event: healthStatusChanged,
  subscriptionKind: 'health',
  readRule: healthcheckAccess.read.id,
  directory: catalogSystemDirectory,
  systemIds: (change) => [change.systemId],
  facts: (_context, change, [system]) =>
    statusChangeFacts(change, system ?? { id: change.systemId, name: change.systemId }),
  // A change put down to an unhealthy dependency is that dependency's news, not this system's.
  suppression: async (context, change) =>
    change.causedBy
      ? suppressedByDependency(change.causedBy.systemId)
      : maintenanceCovering(context, change.systemId),
};
