import { catalogSystemDirectory } from '@checkline/catalog';
import type {
  MaintenanceFacts,
  NotificationSource,
  SystemFact,
} from '@checkline/notification-node';
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

function windowSource(
  id: string,
  kind: MaintenanceFacts['kind'],
  event: typeof maintenanceStarted,
): NotificationSource<MaintenanceEvent> {
  return {
    id,
    event,
    subscriptionKind: 'maintenance',
    readRule: maintenanceAccess.read.id,
    directory: catalogSystemDirectory,
    systemIds: (window) => window.systemIds,
    facts: (_context, window, systems) => windowFacts(kind, window, systems),
  };
}

/** Maintenance windows starting and ending, as subscriptions hear them (kind `maintenance`). */
export const windowSources = [
  windowSource('started', 'maintenance.started', maintenanceStarted),
  windowSource('ended', 'maintenance.ended', maintenanceEnded),
];
