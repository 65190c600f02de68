import type { HealthStatus, HealthStatusChange } from '@checkline/healthcheck';
import type { IncidentEvent, Severity } from '@checkline/incident';
import type { MaintenanceEvent } from '@checkline/maintenance';
import type { Importance, NotificationAction } from '../message-schemas.ts';
import { escapeMarkdown } from '../render/escape-markdown.ts';

/** What one subscription event becomes, for the inbox and for every external channel. */
export interface SubscriptionMessage {
  type: string;
  title: string;
  /** Markdown; every user-written name and title in it is escaped. */
  body: string;
  importance: Importance;
  action: NotificationAction;
}

/** A system as a message names it. */
export interface SystemRef {
  id: string;
  name: string;
}

export type IncidentChange = 'created' | 'updated' | 'resolved';
export type MaintenanceChange = 'started' | 'ended';

const TITLE_LIMIT = 200;
const NAMED_SYSTEMS = 10;

/** Titles are plain text; long user-written parts are cut so the title fits its 200 characters. */
function titleOf(prefix: string, text: string): string {
  const room = TITLE_LIMIT - prefix.length;
  const cut = text.length > room ? `${text.slice(0, room - 1)}…` : text;
  return `${prefix}${cut}`;
}

/** `**A**, **B** and 3 more`, names escaped. */
export function systemList(systems: readonly SystemRef[]): string {
  const named = systems
    .slice(0, NAMED_SYSTEMS)
    .map((system) => `**${escapeMarkdown(system.name)}**`);
  const more = systems.length - named.length;
  if (more > 0) return `${named.join(', ')} and ${more} more`;
  if (named.length <= 1) return named.join('');
  return `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

export function healthImportance(status: HealthStatus): Importance {
  if (status === 'unhealthy') return 'critical';
  if (status === 'degraded') return 'warning';
  return 'info';
}

export function incidentImportance(change: IncidentChange, severity: Severity): Importance {
  if (change === 'resolved') return 'info';
  if (severity === 'critical') return 'critical';
  if (severity === 'major') return 'warning';
  return 'info';
}

export function healthStatusMessage(
  change: HealthStatusChange,
  system: SystemRef,
): SubscriptionMessage {
  return {
    type: 'healthcheck.status_changed',
    title: titleOf(`Now ${change.current}: `, system.name),
    body: `${systemList([system])} changed from ${change.previous} to **${change.current}**.`,
    importance: healthImportance(change.current),
    action: { label: 'View system', url: `/systems/${system.id}` },
  };
}

const incidentTitles: Record<IncidentChange, string> = {
  created: 'Incident: ',
  updated: 'Incident updated: ',
  resolved: 'Incident resolved: ',
};

export function incidentMessage(
  change: IncidentChange,
  incident: IncidentEvent,
  systems: readonly SystemRef[],
): SubscriptionMessage {
  const title = `**${escapeMarkdown(incident.title)}**`;
  const affected = systems.length > 0 ? systemList(systems) : 'no system you can see';
  const body =
    change === 'resolved'
      ? `${title} is resolved. It affected ${affected}.`
      : `${title} (${incident.severity}, ${incident.status}) ${change === 'created' ? 'affects' : 'still affects'} ${affected}.`;
  return {
    type: `incident.${change}`,
    title: titleOf(incidentTitles[change], incident.title),
    body,
    importance: incidentImportance(change, incident.severity),
    action: { label: 'View incident', url: `/incidents/${incident.incidentId}` },
  };
}

export function maintenanceMessage(
  change: MaintenanceChange,
  window: MaintenanceEvent,
  systems: readonly SystemRef[],
): SubscriptionMessage {
  return {
    type: `maintenance.${change}`,
    title: titleOf(`Maintenance ${change}: `, window.title),
    body: `Maintenance **${escapeMarkdown(window.title)}** ${change} for ${systemList(systems)}.`,
    importance: 'info',
    action: { label: 'View maintenance', url: `/maintenance/${window.windowId}` },
  };
}

/** The delivery log's reason for a health alert held back by a maintenance window. */
export function suppressedByMaintenance(window: { id: string; title: string }): string {
  return `Suppressed: maintenance window "${window.title}" (${window.id}) covers the system`;
}

/** The delivery log's reason for a health alert put down to an unhealthy dependency. */
export function suppressedByDependency(systemId: string): string {
  return `Suppressed: caused by the outage of dependency ${systemId}`;
}
