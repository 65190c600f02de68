import type { MaintenanceFacts } from '@checkline/notification-node';
import { escapeMarkdown } from '@checkline/notification-node';
import type { SubscriptionMessage } from './messages.ts';
import { systemList, timeOf, titleOf } from './messages.ts';

/** A maintenance window started or ended: which, for which systems, and its planned times. */
export function renderMaintenance(facts: MaintenanceFacts): Omit<SubscriptionMessage, 'facts'> {
  const change = facts.kind === 'maintenance.started' ? 'started' : 'ended';
  const { window } = facts;
  const lines = [
    `Maintenance **${escapeMarkdown(window.title)}** ${change} for ${systemList(facts.systems)}.`,
  ];
  if (window.startAt !== null && window.endAt !== null) {
    lines.push(`Planned from ${timeOf(window.startAt)} to ${timeOf(window.endAt)}.`);
  }
  return {
    type: facts.kind,
    title: titleOf(`Maintenance ${change}: `, window.title),
    body: lines.join('\n\n'),
    importance: 'info',
    action: { label: 'View maintenance', url: `/maintenance/${window.id}` },
  };
}
