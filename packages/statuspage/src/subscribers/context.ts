import type { Keyring, RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';
import { notificationContract } from '@checkline/notification/contract';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Page } from '../schemas.ts';
import type { SubscriberMail } from './mail.ts';
import { signUnsubscribeToken } from './tokens.ts';

/** Where subscription links answer, relative to the plugin's prefix `/api/statuspage`. */
export const CONFIRM_ROUTE = '/subscriptions/confirm';
export const UNSUBSCRIBE_ROUTE = '/subscriptions/unsubscribe';

/** What the subscription routes and mailings share, once the plugin is initialised. */
export interface Subscriptions {
  service(): RequestContext;
  keyring: Keyring;
  /** Where the API is reached (links in mail point at its routes). */
  apiUrl: string;
  /** Where the web UI is reached: a page without a custom domain is at `/status/{slug}` there. */
  publicUrl: string;
  now(): Date;
  confirmTtlMs: number;
  limits(): { perAddress?: RateLimiterAbstract; perPage?: RateLimiterAbstract };
}

export const confirmUrl = (subscriptions: Subscriptions, token: string) =>
  `${subscriptions.apiUrl}/api/statuspage${CONFIRM_ROUTE}/${token}`;

export const unsubscribeUrl = (subscriptions: Subscriptions, subscriberId: string) =>
  `${subscriptions.apiUrl}/api/statuspage${UNSUBSCRIBE_ROUTE}/${signUnsubscribeToken(subscriptions.keyring, subscriberId)}`;

/** The page's public address: its custom domain when it has one. */
export const pageUrl = (subscriptions: Subscriptions, page: Page) =>
  page.customDomain
    ? `https://${page.customDomain}/`
    : `${subscriptions.publicUrl}/status/${page.slug}`;

/** Sends one mail through the notification platform's e-mail channel; throws when it was not sent. */
export async function sendMail(
  subscriptions: Subscriptions,
  address: string,
  mail: SubscriberMail,
  options: { unsubscribeUrl?: string; messageId?: string } = {},
): Promise<void> {
  const notification = pluginClient(subscriptions.service(), notificationContract);
  const answer = await notification.sendToAddress({
    address,
    notification: mail,
    ...options,
  });
  if (!answer.sent) throw new Error(`Status-page mail not sent: ${answer.error ?? 'no reason'}`);
}
