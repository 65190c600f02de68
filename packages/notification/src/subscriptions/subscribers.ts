import type { EventBus, RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import type { HealthStatusChange } from '@checkline/healthcheck';
import { healthcheckAccess, healthStatusChanged } from '@checkline/healthcheck';
import type { IncidentEvent } from '@checkline/incident';
import {
  incidentAccess,
  incidentCreated,
  incidentResolved,
  incidentUpdated,
} from '@checkline/incident';
import type { MaintenanceEvent } from '@checkline/maintenance';
import { maintenanceAccess, maintenanceEnded, maintenanceStarted } from '@checkline/maintenance';
import { maintenanceContract } from '@checkline/maintenance/contract';
import type { NotificationState } from '../state.ts';
import type { IncidentChange, MaintenanceChange } from './messages.ts';
import {
  healthStatusMessage,
  incidentMessage,
  maintenanceMessage,
  suppressedByDependency,
  suppressedByMaintenance,
} from './messages.ts';
import { notifySubscribers } from './notify.ts';

/** Why a health alert for `systemId` is held back: the active maintenance window covering it. */
async function maintenanceCovering(context: RequestContext, systemId: string) {
  const maintenance = pluginClient(context, 'maintenance', maintenanceContract);
  const { windows } = await maintenance.getBulkActiveWindows({ systemIds: [systemId] });
  const window = windows.find((candidate) => candidate.systemIds.includes(systemId));
  return window && suppressedByMaintenance(window);
}

/**
 * Subscribes the notification plugin to the monitoring events that subscriptions turn into
 * notifications. Call in the register phase; `service` is asked for the service context when an
 * event arrives (it exists from init on).
 */
export function subscribeToMonitoringEvents(
  events: EventBus,
  state: NotificationState,
  service: () => RequestContext,
) {
  events.subscribe(healthStatusChanged, (change: HealthStatusChange, { eventId }) =>
    notifySubscribers(state, service(), {
      eventId,
      kind: 'health',
      sourceRule: healthcheckAccess.read.id,
      systemIds: [change.systemId],
      message: ([system]) => healthStatusMessage(change, system!),
      // A change put down to an unhealthy dependency is that dependency's news, not this system's.
      suppression: async (context) =>
        change.causedBy
          ? suppressedByDependency(change.causedBy.systemId)
          : maintenanceCovering(context, change.systemId),
    }),
  );

  const incidentChanges: [IncidentChange, typeof incidentCreated][] = [
    ['created', incidentCreated],
    ['updated', incidentUpdated],
    ['resolved', incidentResolved],
  ];
  for (const [change, type] of incidentChanges) {
    events.subscribe(type, (incident: IncidentEvent, { eventId }) =>
      notifySubscribers(state, service(), {
        eventId,
        kind: 'incident',
        sourceRule: incidentAccess.read.id,
        systemIds: incident.systemIds,
        message: (systems) => incidentMessage(change, incident, systems),
      }),
    );
  }

  const maintenanceChanges: [MaintenanceChange, typeof maintenanceStarted][] = [
    ['started', maintenanceStarted],
    ['ended', maintenanceEnded],
  ];
  for (const [change, type] of maintenanceChanges) {
    events.subscribe(type, (window: MaintenanceEvent, { eventId }) =>
      notifySubscribers(state, service(), {
        eventId,
        kind: 'maintenance',
        sourceRule: maintenanceAccess.read.id,
        systemIds: window.systemIds,
        message: (systems) => maintenanceMessage(change, window, systems),
      }),
    );
  }
}
