export { notificationAccess } from './access.ts';
export { notificationContract, type NotificationContract } from './contract.ts';
export { createNotificationPlugin, NOTIFICATION_PLUGIN_ID } from './plugin.ts';
export type { NotificationOptions } from './state.ts';
export {
  NotificationStrategyRegistry,
  strategyUseRule,
  type RegisteredStrategy,
} from './strategies/registry.ts';
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
  encryptedTables,
  rotateSecrets,
  type EncryptedTable,
  type RotationResult,
} from './strategies/secret-rotation.ts';
export { enqueueDeliveries, type EnqueueRequest, type Enqueued } from './delivery/enqueue.ts';
export type { DeliverySettings } from './delivery/settings.ts';
export type { DeliveryWorker } from './delivery/worker.ts';
export type { Delivery } from './delivery/schemas.ts';
export { OAuthProviderError } from './oauth/provider.ts';
export { OAUTH_ROUTE_PREFIX } from './oauth/link-flow.ts';
