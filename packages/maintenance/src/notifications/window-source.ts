import { catalogSystemDirectory } from '@checkline/catalog';
import type { MaintenanceFacts, SystemFact } from '@checkline/notification-node';
import { lifecycleSources } from '@checkline/notification-node';
import { maintenanceAccess } from '../access.ts';
import type { MaintenanceEvent } from '../events.ts';
import { maintenanceEnded, maintenanceStarted } from '../events.ts';

/** What a window starting or ending says: which window, its planned period, its systems. */
export function windowFacts(
  kind: MaintenanceFacts['kind'],
  window: MaintenanceEvent,
  systems: readonly SystemFact[],
): MaintenanceFacts {
  return {
    kind,
    window: {
      id: window.windowId,
      title: window.title,
      startAt: window.startAt ?? null,
      endAt: window.endAt ?? null,
    },
    systems: [...systems],
  };
}

/** Maintenance windows starting and ending, as subscriptions hear them (kind `maintenance`). */
export const windowSources = lifecycleSources(
  {
    subscriptionKind: 'maintenance',
    readRule: maintenanceAccess.read.id,
    directory: catalogSystemDirectory,
    facts: windowFacts,
  },
  [
    { id: 'started', event: maintenanceStarted, kind: 'maintenance.started' },
    { id: 'ended', event: maintenanceEnded, kind: 'maintenance.ended' },
  ],
);
