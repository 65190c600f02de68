export { notificationAccess } from './access.ts';
export { notificationContract, type NotificationContract } from './contract.ts';
export { createNotificationPlugin, NOTIFICATION_PLUGIN_ID } from './plugin.ts';
export type { NotificationOptions } from './state.ts';
export {
  NotificationStrategyRegistry,
  strategyUseRule,
  type RegisteredStrategy,
} from './strategies/registry.ts';
export { color, secret } from './strategies/schema-marks.ts';
export { ANY_KEY, secretFieldPaths } from './strategies/secret-field-paths.ts';
export * from './strategies/strategy.ts';
export * from './strategies/versioned-schema.ts';
export * from './message-schemas.ts';
export { insertNotifications } from './inbox/service.ts';
export {
  signUnsubscribeToken,
  verifyUnsubscribeToken,
  UNSUBSCRIBE_PATH,
  type UnsubscribeClaim,
} from './preferences/unsubscribe.ts';
export type { NotificationInput, InAppNotification, InboxEvent } from './inbox/schemas.ts';
export {
  DecryptionError,
  generateEncryptionKey,
  keyIdOf,
  Keyring,
  parseEncryptionKey,
} from './strategies/keyring.ts';
export {
  encryptedTables,
  rotateSecrets,
  type EncryptedTable,
  type RotationResult,
} from './strategies/secret-rotation.ts';
export { enqueueDeliveries, type EnqueueRequest, type Enqueued } from './delivery/enqueue.ts';
export type { DeliverySettings } from './delivery/settings.ts';
export type { DeliveryWorker } from './delivery/worker.ts';
export type { Delivery } from './delivery/schemas.ts';
export {
  deliveryResultOf,
  isRetryableStatus,
  parseRetryAfter,
  unreachable,
} from './delivery/http-answer.ts';
export { createChannelPlugin } from './channels/channel-plugin.ts';
export { callFailure, urlIssues, userUrlIssues } from './channels/call-failure.ts';
export { callService } from './channels/service-call.ts';
export { hostMatches, refusedServiceUrl } from './channels/host-patterns.ts';
export { refusedByUrlRules, serviceUrlRules } from './channels/url-rules.ts';
export * from './render/index.ts';
export {
  createEgress,
  type Egress,
  type EgressOptions,
  type EgressRequestInit,
} from './egress/egress.ts';
export { TargetRefusedError } from '@checkline/healthcheck';
export { OAuthProviderError } from './oauth/provider.ts';
export { OAUTH_ROUTE_PREFIX } from './oauth/link-flow.ts';
export { fitUtf8 } from './channels/utf8-fit.ts';
