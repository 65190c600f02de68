import { defineEvent } from '@checkline/core/contract';
import type { Incident, IncidentStatus, Severity } from './schemas.ts';

export interface IncidentEvent {
  incidentId: string;
  title: string;
  severity: Severity;
  status: IncidentStatus;
  systemIds: string[];
  /** Absent in events published before it was carried. */
  description?: string;
  /** The message the change added to the timeline, and when; null when it added none. */
  update?: { message: string; at: string } | null;
}

export const incidentCreated = defineEvent<IncidentEvent>('incident.created');

/** Any change that does not resolve the incident (reopening included); one per call. */
export const incidentUpdated = defineEvent<IncidentEvent>('incident.updated');

/** The status became `resolved`; published instead of `incident.updated` for that change. */
export const incidentResolved = defineEvent<IncidentEvent>('incident.resolved');

/** The event of a change to `incident` that wrote `message` (if any) to its timeline. */
export function incidentEvent(incident: Incident, message?: string): IncidentEvent {
  return {
    incidentId: incident.id,
    title: incident.title,
    severity: incident.severity,
    status: incident.status,
    systemIds: incident.systemIds,
    description: incident.description,
    update: message === undefined ? null : { message, at: incident.updatedAt },
  };
}
