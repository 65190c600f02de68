import type { AnyPlugin } from '@checkline/core';
import type { OpenAPI } from '@orpc/openapi';
import {
  SIGNATURE_HEADER,
  WEBHOOK_PLUGIN_ID,
  webhookPayloadJsonSchema,
} from '@checkline/notification-webhook';

const PAYLOAD_SCHEMA = 'WebhookPayload';

/**
 * What the webhook channel sends, when it is mounted: the payload's JSON Schema as a named
 * component, and the request itself under the document's `webhooks`, so receivers can validate
 * and generate types from the same document as the API.
 */
export function webhookDocumentation(plugins: readonly AnyPlugin[]): {
  schemas: Record<string, OpenAPI.SchemaObject>;
  webhooks: Record<string, OpenAPI.PathItemObject>;
} {
  if (!plugins.some((plugin) => plugin.id === WEBHOOK_PLUGIN_ID)) {
    return { schemas: {}, webhooks: {} };
  }
  return {
    schemas: { [PAYLOAD_SCHEMA]: webhookPayloadJsonSchema() },
    webhooks: {
      notification: {
        post: {
          operationId: 'webhookNotification',
          tags: [WEBHOOK_PLUGIN_ID],
          summary: 'A notification delivered to a webhook channel.',
          description: `Checkline POSTs one JSON body per delivery to the URL the user or an administrator set. \`X-Checkline-Delivery\` holds the delivery id (the same on every retry: drop duplicates by it), \`${SIGNATURE_HEADER}\` its signature (\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">\` under the signing secret). Subscription alerts carry their structured facts in \`facts\`; \`version\` names the payload format.`,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: `#/components/schemas/${PAYLOAD_SCHEMA}` } },
            },
          },
          responses: {
            '200': { description: 'Any 2xx answer counts as delivered.' },
            '500': {
              description:
                'A 408, 425, 429 or 5xx answer (or none) is retried later, no sooner than `Retry-After` says; other answers (redirects included) fail the delivery.',
            },
          },
        },
      },
    },
  };
}
