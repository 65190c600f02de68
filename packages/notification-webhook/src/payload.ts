import type { DeliveryIdentity, StrategyNotification } from '@checkline/notification-node';
import { AlertFactsSchema, markdownToText } from '@checkline/notification-node';
import { z } from 'zod';

/** The payload's shape; bumped when a field changes meaning or goes away (additions keep it). */
export const WEBHOOK_PAYLOAD_VERSION = 1;

/** The JSON body of a webhook request. */
export const WebhookPayloadSchema = z
  .object({
    version: z
      .literal(WEBHOOK_PAYLOAD_VERSION)
      .describe('The payload format; a change that breaks receivers comes with a new version.'),
    id: z
      .string()
      .describe('The delivery id: the same on every retry, so receivers can drop duplicates.'),
    type: z.string().describe('`<plugin>.<kind>`, e.g. `healthcheck.status_changed`.'),
    title: z.string(),
    description: z.string().describe('Markdown; every monitored value in it is escaped.'),
    text: z
      .string()
      .describe(
        'The description as plain text (links as `label (url)`), for receivers that show text.',
      ),
    importance: z.string().describe('`info`, `warning` or `critical`.'),
    action: z.object({ label: z.string(), url: z.string() }).nullable(),
    timestamp: z.iso.datetime().describe('When the notification was written (ISO 8601).'),
    facts: AlertFactsSchema.nullable().describe(
      'What a subscription alert says, as typed values (`kind` tells which); null for notifications sent through the API.',
    ),
  })
  .describe('The JSON body Checkline POSTs to a webhook, signed in `X-Checkline-Signature`.');

export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** The payload's JSON Schema (draft 2020-12), as the OpenAPI document publishes it. */
export function webhookPayloadJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(WebhookPayloadSchema, {
    target: 'draft-2020-12',
    // Input mode leaves objects open: a field added under the same version still validates.
    io: 'input',
  });
  return schema;
}

export function webhookPayload(
  notification: StrategyNotification,
  delivery: Pick<DeliveryIdentity, 'id' | 'createdAt'>,
): WebhookPayload {
  return {
    version: WEBHOOK_PAYLOAD_VERSION,
    id: delivery.id,
    type: notification.type,
    title: notification.title,
    description: notification.body ?? '',
    text: markdownToText(notification.body ?? ''),
    importance: notification.importance ?? 'info',
    action: notification.action ?? null,
    timestamp: delivery.createdAt.toISOString(),
    facts: notification.facts ?? null,
  };
}
