import { defineEvent } from '@checkline/core/contract';
import type { Incident, IncidentStatus, Severity } from './schemas.ts';

export interface IncidentEvent {
  incidentId: string;
  title: string;
  severity: Severity;
  status: IncidentStatus;
  systemIds: string[];
}

export const incidentCreated = defineEvent<IncidentEvent>('incident.created');

/** Any change that does not resolve the incident (reopening included); one per call. */
export const incidentUpdated = defineEvent<IncidentEvent>('incident.updated');

/** The status became `resolved`; published instead of `incident.updated` for that change. */
export const incidentResolved = defineEvent<IncidentEvent>('incident.resolved');

export function incidentEvent(incident: Incident): IncidentEvent {
  return {
    incidentId: incident.id,
    title: incident.title,
    severity: incident.severity,
    status: incident.status,
    systemIds: incident.systemIds,
  };
}
