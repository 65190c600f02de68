import { destination, secret, versionedSchema } from '@checkline/notification-node';
import { z } from 'zod';

const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'Must be an http:// or https:// URL' })
  .max(2_048)
  .refine((url) => {
    const parsed = new URL(url);
    return !parsed.username && !parsed.password;
  }, 'Must not carry credentials (user:password@); sign requests with the signing secret instead');

const signingSecret = () =>
  secret(z.string().min(16, 'At least 16 characters').max(512, 'At most 512 characters')).describe(
    'The key every request is signed with (HMAC-SHA256); the receiver checks the signature with it.',
  );

/** The administrator's settings: a URL every user without one of their own is reached at. */
export const WebhookConfigSchema = z
  .object({
    url: destination(webhookUrl).optional(),
    signingSecret: signingSecret().optional(),
  })
  .superRefine((config, context) => {
    if (config.url && !config.signingSecret) {
      context.addIssue({
        code: 'custom',
        path: ['signingSecret'],
        message: 'Required with a URL: every request is signed',
      });
    }
  });
export type WebhookConfig = z.infer<typeof WebhookConfigSchema>;

/** A user's own receiver. */
export const WebhookUserConfigSchema = z.object({
  url: destination(webhookUrl),
  signingSecret: signingSecret(),
});
export type WebhookUserConfig = z.infer<typeof WebhookUserConfigSchema>;

export const webhookConfig = versionedSchema({ version: 1, schema: WebhookConfigSchema });
export const webhookUserConfig = versionedSchema({ version: 1, schema: WebhookUserConfigSchema });

/** Where a user's notifications go and the secret that signs them: the user's own, else the admin's. */
export function webhookTarget(
  config: WebhookConfig | undefined,
  userConfig: WebhookUserConfig | undefined,
): { url: string; signingSecret: string } | undefined {
  if (userConfig?.url) return { url: userConfig.url, signingSecret: userConfig.signingSecret };
  if (config?.url && config.signingSecret) {
    return { url: config.url, signingSecret: config.signingSecret };
  }
  return undefined;
}
