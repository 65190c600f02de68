import { catalogSystemDirectory } from '@checkline/catalog';
import type { IncidentFacts, SystemFact } from '@checkline/notification-node';
import { lifecycleSources } from '@checkline/notification-node';
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

/** Incidents opened, updated and resolved, as subscriptions hear them (kind `incident`). */
export const incidentSources = lifecycleSources(
  {
    subscriptionKind: 'incident',
    readRule: incidentAccess.read.id,
    directory: catalogSystemDirectory,
    facts: incidentFacts,
  },
  [
    { id: 'created', event: incidentCreated, kind: 'incident.created' },
    { id: 'updated', event: incidentUpdated, kind: 'incident.updated' },
    { id: 'resolved', event: incidentResolved, kind: 'incident.resolved' },
  ],
);
