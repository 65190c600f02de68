import type { IncidentFacts } from '@checkline/notification-node';
import { escapeMarkdown } from '@checkline/notification-node';
import type { Importance } from '../message-schemas.ts';
import type { SubscriptionMessage } from './messages.ts';
import { systemList, timeOf, titleOf } from './messages.ts';

const QUOTED_LIMIT = 2_000;

export function incidentImportance(
  kind: IncidentFacts['kind'],
  severity: IncidentFacts['incident']['severity'],
): Importance {
  if (kind === 'incident.resolved') return 'info';
  if (severity === 'critical') return 'critical';
  if (severity === 'major') return 'warning';
  return 'info';
}

const titles: Record<IncidentFacts['kind'], string> = {
  'incident.created': 'Incident: ',
  'incident.updated': 'Incident updated: ',
  'incident.resolved': 'Incident resolved: ',
};

/** User-written text as a Markdown quote, escaped and cut so one alert stays an alert. */
function quoted(text: string): string {
  const cut = text.length > QUOTED_LIMIT ? `${text.slice(0, QUOTED_LIMIT - 1)}…` : text;
  return cut
    .split(/\r?\n/)
    .map((line) => `> ${escapeMarkdown(line)}`)
    .join('\n');
}

/** An incident was opened, updated or resolved: its state, its systems, and what was said. */
export function renderIncident(facts: IncidentFacts): Omit<SubscriptionMessage, 'facts'> {
  const { incident } = facts;
  const name = `**${escapeMarkdown(incident.title)}**`;
  const affected = facts.systems.length > 0 ? systemList(facts.systems) : 'no system you can see';
  const lines =
    facts.kind === 'incident.resolved'
      ? [`${name} is resolved. It affected ${affected}.`]
      : [
          `${name} (${incident.severity}, ${incident.status}) ${facts.kind === 'incident.created' ? 'affects' : 'still affects'} ${affected}.`,
        ];
  if (facts.kind === 'incident.created' && incident.description.trim() !== '') {
    lines.push(quoted(incident.description));
  }
  if (incident.latestUpdate) {
    lines.push(
      `Latest update, ${timeOf(incident.latestUpdate.at)}:\n${quoted(incident.latestUpdate.message)}`,
    );
  }
  return {
    type: facts.kind,
    title: titleOf(titles[facts.kind], incident.title),
    body: lines.join('\n\n'),
    importance: incidentImportance(facts.kind, incident.severity),
    action: { label: 'View incident', url: `/incidents/${incident.id}` },
  };
}
