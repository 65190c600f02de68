import { createHash } from 'node:crypto';
import type { IncidentEvent } from '@checkline/incident';
import type { MaintenanceEvent } from '@checkline/maintenance';
import { pluginClient } from '@checkline/core';
import { maintenanceContract } from '@checkline/maintenance/contract';
import { shownSystems } from '../public-page.ts';
import type { Page } from '../schemas.ts';
import { publishedPages } from '../service.ts';
import type { Subscriptions } from './context.ts';
import { pageUrl, sendMail, unsubscribeUrl } from './context.ts';
import type { MaintenanceChange, SubscriberMail } from './mail.ts';
import { incidentMail, maintenanceMail } from './mail.ts';
import { confirmedSubscribers, recordMailed, wasMailed } from './service.ts';

type Links = { page: string; unsubscribe: string };

/** A UUID-shaped name of one (subscriber, event): the mail's Message-ID stays the same on a retry. */
function messageIdOf(subscriberId: string, eventId: string): string {
  const hex = createHash('sha256').update(`${subscriberId}:${eventId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Mails the confirmed subscribers of every published page that shows one of `systemIds` (the
 * systems the page lists and the shown members of its groups, as its public answer does). Each
 * mail sent is recorded under the event's id, so a redelivered event mails only those it missed;
 * when one failed, this throws and the event bus delivers the event again later.
 */
async function mailSubscribers(
  subscriptions: Subscriptions,
  eventId: string,
  systemIds: readonly string[],
  compose: (page: Page, links: Links) => SubscriberMail,
  /** Asked only when someone would be mailed: false mails nobody. */
  worthMailing: () => Promise<boolean> = () => Promise.resolve(true),
): Promise<void> {
  if (systemIds.length === 0) return;
  const context = subscriptions.service();
  const pages: Page[] = [];
  for (const page of await publishedPages(context.db)) {
    const { shown } = await shownSystems(context, page);
    if (systemIds.some((id) => shown.has(id))) pages.push(page);
  }
  const pageById = new Map(pages.map((page) => [page.id, page]));
  const recipients = await confirmedSubscribers(context.db, [...pageById.keys()]);
  if (recipients.length === 0 || !(await worthMailing())) return;
  const failures: unknown[] = [];
  for (const subscriber of recipients) {
    if (await wasMailed(context.db, subscriber.id, eventId)) continue;
    const page = pageById.get(subscriber.pageId)!;
    const unsubscribe = unsubscribeUrl(subscriptions, subscriber.id);
    const mail = compose(page, { page: pageUrl(subscriptions, page), unsubscribe });
    try {
      await sendMail(subscriptions, subscriber.email, mail, {
        unsubscribeUrl: unsubscribe,
        messageId: messageIdOf(subscriber.id, eventId),
      });
      await recordMailed(context.db, subscriber.id, eventId);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) {
    throw new AggregateError(failures, `${failures.length} status-page mails not sent`);
  }
}

export const mailIncident = (subscriptions: Subscriptions, event: IncidentEvent, eventId: string) =>
  mailSubscribers(subscriptions, eventId, event.systemIds, (page, links) =>
    incidentMail(page, event, links),
  );

/**
 * A changed window is announced while it is still ahead (scheduled or moved); a deleted or past
 * one is not. Started and ended windows are announced as such.
 */
export async function mailMaintenance(
  subscriptions: Subscriptions,
  event: MaintenanceEvent,
  eventId: string,
  change: MaintenanceChange,
): Promise<void> {
  const stillAhead = async () => {
    const { windows } = await pluginClient(subscriptions.service(), maintenanceContract).getWindows(
      { limit: 200 },
    );
    const window = windows.find((candidate) => candidate.id === event.windowId);
    return window !== undefined && Date.parse(window.startAt) > subscriptions.now().getTime();
  };
  await mailSubscribers(
    subscriptions,
    eventId,
    event.systemIds,
    (page, links) => maintenanceMail(page, event, change, links),
    change === 'scheduled' ? stillAhead : undefined,
  );
}
