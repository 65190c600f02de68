import { catalogSystemDirectory } from '@checkline/catalog';
import type { IncidentFacts, NotificationSource, SystemFact } from '@checkline/notification-node';
import { incidentAccess } from '../access.ts';
import type { IncidentEvent } from '../events.ts';
import { incidentCreated, incidentResolved, incidentUpdated } from '../events.ts';

/** What an incident event says: the incident's state, its systems and the update's message. */
export function incidentFacts(
  kind: IncidentFacts['kind'],
  incident: IncidentEvent,
  systems: readonly SystemFact[],
): IncidentFacts {
  return {
    kind,
    incident: {
      id: incident.incidentId,
      title: incident.title,
      description: incident.description ?? '',
      status: incident.status,
      severity: incident.severity,
      latestUpdate: incident.update ?? null,
    },
    systems: [...systems],
  };
}

function incidentSource(
  id: string,
  kind: IncidentFacts['kind'],
  event: typeof incidentCreated,
): NotificationSource<IncidentEvent> {
  return {
    id,
    event,
    subscriptionKind: 'incident',
    readRule: incidentAccess.read.id,
    directory: catalogSystemDirectory,
    systemIds: (incident) => incident.systemIds,
    facts: (_context, incident, systems) => incidentFacts(kind, incident, systems),
  };
}

/** Incidents opened, updated and resolved, as subscriptions hear them (kind `incident`). */
export const incidentSources = [
  incidentSource('created', 'incident.created', incidentCreated),
  incidentSource('updated', 'incident.updated', incidentUpdated),
  incidentSource('resolved', 'incident.resolved', incidentResolved),
];
