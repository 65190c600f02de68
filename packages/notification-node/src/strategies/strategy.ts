import type { AlertFacts } from '../sources/alert-facts.ts';
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
  /** A subscription alert's structured facts (what the title and body say, typed). */
  facts?: AlertFacts;
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
  /**
   * Non-transactional deliveries only: an absolute, signed, expiring URL that switches this
   * channel off for the user when POSTed to (RFC 8058 one-click; e-mail puts it in
   * `List-Unsubscribe`, other channels may link it).
   */
  unsubscribeUrl?: string;
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

/** Tokens the platform holds for one user's link. */
export interface OAuthTokenSet {
  accessToken: string;
  refreshToken?: string;
}

/**
 * Declarative OAuth linking of a user's account on the strategy's platform (authorization code
 * with PKCE S256). The platform serves `/api/notification/oauth/{strategyId}/auth|callback|refresh|unlink`,
 * stores the tokens encrypted and refreshes them before `send`.
 */
export interface StrategyOAuth<TConfig> {
  clientId(config: TConfig): string;
  clientSecret(config: TConfig): string;
  scopes: readonly string[];
  authorizationUrl(config: TConfig): string;
  tokenUrl(config: TConfig): string;
  /** From the token endpoint's JSON answer. */
  extractExternalId(token: Record<string, unknown>): string;
  /** Default: `access_token`. */
  extractAccessToken?(token: Record<string, unknown>): string;
  /** Default: `refresh_token` when a string. */
  extractRefreshToken?(token: Record<string, unknown>): string | undefined;
  /** Seconds. Default: `expires_in` when a positive number. */
  extractExpiresIn?(token: Record<string, unknown>): number | undefined;
  /** Granted scopes. Default: `scope` split on spaces or commas, else the scopes asked for. */
  extractScopes?(token: Record<string, unknown>): readonly string[];
  /**
   * The strategy's own part of the `state` parameter (the platform always puts a random,
   * single-use value of its own in front of it, `{random}.{encoded}`).
   */
  encodeState?(userId: string, returnUrl: string): string;
  /** Inverse of encodeState; on the callback its answer must match the stored state. */
  decodeState?(state: string): { userId: string; returnUrl: string };
  /** The consent URL; the platform adds `code_challenge` and `code_challenge_method=S256`. */
  buildAuthUrl?(input: {
    clientId: string;
    redirectUri: string;
    scopes: readonly string[];
    state: string;
  }): string;
  /** Custom refresh; default: `grant_type=refresh_token` at tokenUrl. */
  refreshToken?(
    refreshToken: string,
    config: TConfig,
  ): Promise<{ accessToken: string; refreshToken?: string; expiresIn?: number }>;
  /** RFC 7009 revocation endpoint, used by unlink when `revoke` is absent. */
  revocationUrl?(config: TConfig): string;
  /** Custom revocation on unlink; throwing leaves the link removed here all the same. */
  revoke?(tokens: OAuthTokenSet, config: TConfig): Promise<void>;
  /**
   * How the client authenticates at tokenUrl and revocationUrl: HTTP Basic (default, RFC 6749
   * 2.3.1) or `client_id`/`client_secret` in the form body.
   */
  clientAuthentication?: 'basic' | 'body';
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
  /**
   * Applications (callers with an API key) may receive through it, at the `userConfig` they set
   * themselves and never at an administrator's fallback: a channel whose user settings alone say
   * where and how to send (the webhook). Default false: applications are not reached.
   */
  reachesApplications?: boolean;
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
