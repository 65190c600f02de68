import type { IncidentEvent } from '@checkline/incident';
import type { MaintenanceEvent } from '@checkline/maintenance';
import type { Page } from '../schemas.ts';

/** What the notification platform's sendToAddress takes as `notification`. */
export interface SubscriberMail {
  title: string;
  description: string;
  type: string;
  action?: { label: string; url: string };
}

/** Text chosen by administrators, shown as it is: no Markdown of it becomes a link or markup. */
const escapeMarkdown = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');

const footer = (unsubscribeUrl: string) =>
  `You receive this because you subscribed to this status page. [Unsubscribe](${unsubscribeUrl})`;

export function confirmationMail(page: Page, confirmUrl: string): SubscriberMail {
  return {
    title: `Confirm your subscription to ${page.title}`,
    description: [
      `Someone, hopefully you, asked to receive updates of the status page **${escapeMarkdown(page.title)}** at this address.`,
      'Nothing will be sent until you confirm. If it was not you, ignore this message.',
    ].join('\n\n'),
    type: 'statuspage.subscription_confirm',
    action: { label: 'Confirm subscription', url: confirmUrl },
  };
}

export function incidentMail(
  page: Page,
  event: IncidentEvent,
  links: { page: string; unsubscribe: string },
): SubscriberMail {
  const status = event.status.replaceAll('_', ' ');
  return {
    title: `[${page.title}] ${event.title}: ${status}`,
    description: [
      `**${escapeMarkdown(event.title)}** is now *${escapeMarkdown(status)}* (severity: ${escapeMarkdown(event.severity)}).`,
      ...(event.update?.message ? [escapeMarkdown(event.update.message)] : []),
      footer(links.unsubscribe),
    ].join('\n\n'),
    type: 'statuspage.incident',
    action: { label: 'Open the status page', url: links.page },
  };
}

export type MaintenanceChange = 'scheduled' | 'started' | 'ended';

export function maintenanceMail(
  page: Page,
  event: MaintenanceEvent,
  change: MaintenanceChange,
  links: { page: string; unsubscribe: string },
): SubscriberMail {
  const period = event.startAt && event.endAt ? ` (${event.startAt} to ${event.endAt})` : '';
  return {
    title: `[${page.title}] Maintenance ${change}: ${event.title}`,
    description: [
      `Maintenance **${escapeMarkdown(event.title)}** ${change}${escapeMarkdown(period)}.`,
      footer(links.unsubscribe),
    ].join('\n\n'),
    type: `statuspage.maintenance_${change}`,
    action: { label: 'Open the status page', url: links.page },
  };
}
