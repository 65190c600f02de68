import { createExtensionPoint } from '@checkline/core';
import type { VersionedSchema } from './versioned-schema.ts';

/** The notification a strategy delivers (as given to notifyUsers, sendExternal, sendTransactional). */
export interface StrategyNotification {
  title: string;
  /** Markdown. */
  body?: string;
  importance?: string;
  action?: { label: string; url: string };
  /** `<plugin>.<kind>` */
  type: string;
}

/** How the platform finds a user's contact for a strategy. */
export type ContactResolution =
  /** The user's e-mail in the auth plugin. */
  | { type: 'auth-email' }
  /** The e-mail that the named login provider holds for the user. */
  | { type: 'auth-provider'; provider: string }
  /** A field of the user's config (the strategy's userConfig names it). */
  | { type: 'user-config'; field: string }
  /** The external id stored when the user linked an account through `oauth`. */
  | { type: 'oauth-link' }
  /** The strategy's own resolver; undefined means the user has no contact. */
  | {
      type: 'custom';
      resolve(context: {
        userId: string;
        userConfig: unknown;
        /** The administrator's config (a default the user's settings may override). */
        strategyConfig: unknown;
      }): Promise<string | undefined>;
    };

/** The delivery a `send` call attempts. */
export interface DeliveryIdentity {
  /** Stable across retries of this delivery: receivers de-duplicate by it. */
  id: string;
  userId: string;
  /** The strategy's qualified id. */
  strategyId: string;
  /** When the notification was written. */
  createdAt: Date;
  /** Account mail (sign-in links, resets): no unsubscribe link, sent whatever the preferences. */
  transactional: boolean;
}

export interface StrategySendContext<TConfig, TLayout, TUserConfig = unknown> {
  contact: string;
  /** The action's URL is absolute: paths of ours are resolved against the frontend's address. */
  notification: StrategyNotification;
  delivery: DeliveryIdentity;
  strategyConfig: TConfig;
  /** Present when the strategy has a layoutConfig. */
  layoutConfig?: TLayout;
  /** The user's own settings, secrets decrypted; undefined when the user saved none. */
  userConfig?: TUserConfig;
  /** `oauth-link` strategies only. */
  accessToken?: string;
  /** `oauth-link` strategies only. */
  externalId?: string;
}

export interface DeliveryResult {
  success: boolean;
  /** What went wrong, when `success` is false. */
  error?: string;
  /** The failure will not go away by retrying (a rejected address, say). Default false. */
  permanent?: boolean;
  /**
   * The service asked to wait this long before trying again (`Retry-After`, rate-limit reset):
   * the next attempt comes no sooner, capped at an hour.
   */
  retryAfterMs?: number;
}

/** A layer about to be stored, for a strategy's `validateConfig`. */
export type ValidatedLayer<TConfig, TUserConfig, TLayout> =
  | { layer: 'config'; value: TConfig }
  | { layer: 'userConfig'; value: TUserConfig }
  | { layer: 'layoutConfig'; value: TLayout };

/** What is wrong with a layer: `path` is a dot path inside it (`url`), empty for the whole. */
export interface LayerIssue {
  path: string;
  message: string;
}

/** Declarative OAuth linking of a user's account on the strategy's platform. */
export interface StrategyOAuth<TConfig> {
  clientId(config: TConfig): string;
  clientSecret(config: TConfig): string;
  scopes: readonly string[];
  authorizationUrl(config: TConfig): string;
  tokenUrl(config: TConfig): string;
  extractExternalId(token: Record<string, unknown>): string;
  extractAccessToken?(token: Record<string, unknown>): string;
  extractRefreshToken?(token: Record<string, unknown>): string | undefined;
  extractExpiresIn?(token: Record<string, unknown>): number | undefined;
  encodeState?(userId: string, returnUrl: string): string;
  decodeState?(state: string): { userId: string; returnUrl: string };
  buildAuthUrl?(input: {
    clientId: string;
    redirectUri: string;
    scopes: readonly string[];
    state: string;
  }): string;
  refreshToken?(
    refreshToken: string,
  ): Promise<{ accessToken: string; refreshToken?: string; expiresIn?: number }>;
}

/** What a plugin registers: one way of delivering notifications. */
export interface NotificationStrategy<TConfig = unknown, TUserConfig = unknown, TLayout = unknown> {
  /** Lowercase letters, digits, dashes; qualified at run time as `{ownerPluginId}.{id}`. */
  id: string;
  displayName: string;
  description?: string;
  /** The name of an icon from the UI's icon set. */
  icon?: string;
  /** The administrator's (infrastructure) configuration. */
  config: VersionedSchema<TConfig>;
  /** Each user's own configuration. */
  userConfig?: VersionedSchema<TUserConfig>;
  /** Administrator-customisable layout and branding. */
  layoutConfig?: VersionedSchema<TLayout>;
  contactResolution: ContactResolution;
  send(context: StrategySendContext<TConfig, TLayout, TUserConfig>): Promise<DeliveryResult>;
  /**
   * Checks a layer's value beyond its schema before it is stored (a webhook URL must not resolve
   * to a private address, say): answers issues at paths inside the layer, empty when fine. The
   * value is validated by the schema already, secrets in plain text; never echo them.
   */
  validateConfig?(layer: ValidatedLayer<TConfig, TUserConfig, TLayout>): Promise<LayerIssue[]>;
  oauth?: StrategyOAuth<TConfig>;
  /** Markdown: setup guide for administrators. */
  adminInstructions?: string;
  /** Markdown: guide for users configuring or linking their account. */
  userInstructions?: string;
}

/** Keeps a strategy's config types together while it is written; returns it unchanged. */
export function defineNotificationStrategy<TConfig, TUserConfig = unknown, TLayout = unknown>(
  strategy: NotificationStrategy<TConfig, TUserConfig, TLayout>,
): NotificationStrategy<TConfig, TUserConfig, TLayout> {
  return strategy;
}

export interface NotificationStrategyRegistrar {
  /** Only during the register phase; the id is qualified with the calling plugin's id. */
  register<TConfig, TUserConfig, TLayout>(
    strategy: NotificationStrategy<TConfig, TUserConfig, TLayout>,
  ): void;
}

/**
 * Where plugins add notification strategies, in their register phase:
 * `extensionPoints.get(notificationStrategyExtensionPoint, pluginId).register(strategy)`.
 */
export const notificationStrategyExtensionPoint =
  createExtensionPoint<NotificationStrategyRegistrar>('notification.strategies');
