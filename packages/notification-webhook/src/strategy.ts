import type { DeliveryResult, Egress } from '@checkline/notification-node';
import {
  defineNotificationStrategy,
  deliveryResultOf,
  TargetRefusedError,
  unreachable,
  urlIssues,
} from '@checkline/notification-node';
import { webhookPayload } from './payload.ts';
import type { WebhookConfig, WebhookUserConfig } from './settings.ts';
import { webhookConfig, webhookTarget, webhookUserConfig } from './settings.ts';
import { SIGNATURE_HEADER, signWebhook } from './signature.ts';

const SERVICE = 'Webhook';
const TIMEOUT_MS = 10_000;

const adminInstructions = `Checkline POSTs each notification as JSON to a URL, signed with HMAC-SHA256.

- **URL** (optional): where users without a URL of their own are reached. Users may set their own.
- **Signing secret**: required with a URL, at least 16 characters. Receivers verify the
  \`X-Checkline-Signature\` header with it.

Private, loopback, link-local and CGNAT addresses are refused unless the server runs with
\`WEBHOOK_ALLOW_PRIVATE=true\` (on-premise receivers). Redirects are not followed.`;

const userInstructions = `Give the URL of your receiver and a signing secret (at least 16 characters) that
only you and the receiver know. Each request carries \`X-Checkline-Signature: t=<unix>,v1=<hex>\`,
the HMAC-SHA256 of \`<t>.<body>\` under the secret: check it, and drop requests older than five
minutes. The body's \`id\` stays the same when a delivery is retried.`;

/** The webhook strategy, calling out through `egress` only. */
export function webhookStrategy(egress: Egress) {
  async function post(url: string, signingSecret: string, body: string, deliveryId: string) {
    let response: Response;
    try {
      response = await egress.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Checkline-Webhook/1',
          'x-checkline-delivery': deliveryId,
          [SIGNATURE_HEADER]: signWebhook(signingSecret, Math.floor(Date.now() / 1_000), body),
        },
        body,
        timeoutMs: TIMEOUT_MS,
      });
    } catch (error) {
      if (error instanceof TargetRefusedError) {
        return { success: false, error: error.message, permanent: true } satisfies DeliveryResult;
      }
      return unreachable(SERVICE, error);
    }
    return deliveryResultOf(response, SERVICE);
  }

  return defineNotificationStrategy<WebhookConfig, WebhookUserConfig>({
    id: 'webhook',
    displayName: 'Webhook',
    description: 'Signed JSON POSTs to a URL of your own.',
    icon: 'webhook',
    config: webhookConfig,
    userConfig: webhookUserConfig,
    contactResolution: {
      type: 'custom',
      resolve: ({ userConfig, strategyConfig }) =>
        Promise.resolve(
          webhookTarget(
            strategyConfig as WebhookConfig | undefined,
            userConfig as WebhookUserConfig | undefined,
          )?.url,
        ),
    },
    reachesApplications: true,
    adminInstructions,
    userInstructions,
    validateConfig: ({ layer, value }) =>
      layer === 'layoutConfig' ? Promise.resolve([]) : urlIssues(egress, 'url', value.url),
    async send({ notification, delivery, strategyConfig, userConfig }) {
      const target = webhookTarget(strategyConfig, userConfig);
      if (!target) {
        return { success: false, error: 'No webhook URL is configured', permanent: true };
      }
      const body = JSON.stringify(webhookPayload(notification, delivery));
      return post(target.url, target.signingSecret, body, delivery.id);
    },
  });
}
