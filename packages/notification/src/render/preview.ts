import type { Database } from '@checkline/db';
import { absoluteUrl } from '../delivery/attempt.ts';
import type { NotificationState } from '../state.ts';
import { findStrategy } from '../strategies/service.ts';
import { loadStrategySettings } from '../strategies/settings-store.ts';
import type { StrategyNotification } from '@checkline/notification-node';
import { markdownToChat } from '@checkline/notification-node';
import { markdownToText } from '@checkline/notification-node';
import type { NotificationPreview, PreviewNotificationInput } from './preview-schemas.ts';
import { renderEmail, type EmailBranding } from '@checkline/notification-node';

const BRANDING_FIELDS = ['logoUrl', 'primaryColor', 'accentColor', 'footerText'] as const;

/** The branding fields a strategy's layoutConfig holds, whatever else it holds. */
function brandingOf(layoutConfig: unknown): EmailBranding {
  const branding: EmailBranding = {};
  if (typeof layoutConfig !== 'object' || layoutConfig === null) return branding;
  for (const field of BRANDING_FIELDS) {
    const value = (layoutConfig as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') branding[field] = value;
  }
  return branding;
}

/**
 * What the renderers and the e-mail layout make of a notification for one strategy, with the
 * strategy's stored layout: nothing is sent or stored. NOT_FOUND for an unknown strategy.
 */
export async function previewNotification(
  state: NotificationState,
  db: Database,
  input: PreviewNotificationInput,
): Promise<NotificationPreview> {
  const strategy = findStrategy(state, input.strategyId);
  const settings = (await loadStrategySettings(state, db, [strategy.qualifiedId])).get(
    strategy.qualifiedId,
  );
  const { description, action, ...fields } = input.notification;
  const notification: StrategyNotification = {
    ...fields,
    body: description,
    ...(action && { action: { label: action.label, url: absoluteUrl(action.url, state) } }),
  };
  const body = notification.body ?? '';
  return {
    email: renderEmail(notification, brandingOf(settings?.layoutConfig)),
    text: markdownToText(body, { action: notification.action }),
    chat: markdownToChat(body, { action: notification.action }),
  };
}
