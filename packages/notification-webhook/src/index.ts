export {
  createWebhookChannelPlugin,
  WEBHOOK_PLUGIN_ID,
  type WebhookChannelOptions,
} from './plugin.ts';
export {
  WEBHOOK_PAYLOAD_VERSION,
  WebhookPayloadSchema,
  webhookPayloadJsonSchema,
  type WebhookPayload,
} from './payload.ts';
export {
  WebhookConfigSchema,
  WebhookUserConfigSchema,
  type WebhookConfig,
  type WebhookUserConfig,
} from './settings.ts';
export {
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhookSignature,
  type VerifyOptions,
} from './signature.ts';
export { webhookStrategy } from './strategy.ts';
