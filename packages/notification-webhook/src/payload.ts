import type { DeliveryIdentity, StrategyNotification } from '@checkline/notification';
import { markdownToText } from '@checkline/notification';

/** The JSON body of a webhook request. */
export interface WebhookPayload {
  /** The delivery's id: the same on every retry, so receivers can drop duplicates. */
  id: string;
  /** `<plugin>.<kind>`, e.g. `healthcheck.status_changed`. */
  type: string;
  title: string;
  /** Markdown. */
  description: string;
  /** The description as plain text (links as `label (url)`), for receivers that show text. */
  text: string;
  importance: string;
  action: { label: string; url: string } | null;
  /** When the notification was written (ISO 8601). */
  timestamp: string;
}

export function webhookPayload(
  notification: StrategyNotification,
  delivery: Pick<DeliveryIdentity, 'id' | 'createdAt'>,
): WebhookPayload {
  return {
    id: delivery.id,
    type: notification.type,
    title: notification.title,
    description: notification.body ?? '',
    text: markdownToText(notification.body ?? ''),
    importance: notification.importance ?? 'info',
    action: notification.action ?? null,
    timestamp: delivery.createdAt.toISOString(),
  };
}
