import type { AuthConfig, OidcSettings } from '@checkline/auth';
import { createAuthPlugin } from '@checkline/auth';
import { catalogPlugin } from '@checkline/catalog';
import { createHealthcheckPlugin } from '@checkline/healthcheck';
import { createIncidentPlugin } from '@checkline/incident';
import { createMaintenancePlugin } from '@checkline/maintenance';
import { createStatuspagePlugin } from '@checkline/statuspage';
import type { Egress } from '@checkline/net';
import { createEgress } from '@checkline/net';
import type { NotificationOptions } from '@checkline/notification';
import { Keyring } from '@checkline/core';
import { createNotificationPlugin } from '@checkline/notification';
import { createDiscordChannelPlugin } from '@checkline/notification-discord';
import { createGotifyChannelPlugin } from '@checkline/notification-gotify';
import { createNtfyChannelPlugin } from '@checkline/notification-ntfy';
import { createSlackChannelPlugin } from '@checkline/notification-slack';
import { createSmsChannelPlugin } from '@checkline/notification-sms';
import { createTeamsChannelPlugin } from '@checkline/notification-teams';
import { createSmtpChannelPlugin } from '@checkline/notification-smtp';
import type { SmtpChannelOptions } from '@checkline/notification-smtp';
import { createTelegramChannelPlugin } from '@checkline/notification-telegram';
import { createWebhookChannelPlugin } from '@checkline/notification-webhook';
import type { AnyPlugin } from '@checkline/core';
import type { Env } from './env.ts';

const perMinute = (points: number) => (points === 0 ? false : { points, durationSeconds: 60 });
const perHour = (points: number) => (points === 0 ? false : { points, durationSeconds: 3_600 });

/**
 * The notification channels that call out through `egress` (every one but e-mail); tests mount
 * them again with a guard that lets loopback services through.
 */
export function egressChannelPlugins(egress: Egress): AnyPlugin[] {
  return [
    createWebhookChannelPlugin({ egress }),
    createSlackChannelPlugin({ egress }),
    createTeamsChannelPlugin({ egress }),
    createDiscordChannelPlugin({ egress }),
    createTelegramChannelPlugin({ egress }),
    createSmsChannelPlugin({ egress }),
    createNtfyChannelPlugin({ egress }),
    createGotifyChannelPlugin({ egress }),
  ];
}

/** Settings of the e-mail channel a server is built with; `egress` replaces the server's guard. */
export type SmtpSettings = Partial<SmtpChannelOptions>;

/**
 * The notification channels, mounted after the notification plugin. They call out through one
 * egress guard, which WEBHOOK_ALLOW_PRIVATE opens to private addresses: HTTP calls and the
 * e-mail channel's SMTP connections alike.
 */
function channelPlugins(egress: Egress, smtp: SmtpSettings): readonly AnyPlugin[] {
  return [createSmtpChannelPlugin({ egress, ...smtp }), ...egressChannelPlugins(egress)];
}

/**
 * The plugins behind auth, in start-up and migration order (healthcheck asks maintenance). Made
 * anew for every server: plugins with background work keep state from their start-up. An extra
 * plugin replaces the plugin of the same id (tests mount channels with their own egress guard).
 */
const guardedPlugins = (
  env: Env,
  extra: readonly AnyPlugin[],
  notification: NotificationOptions & { keyring: Keyring },
  smtp: SmtpSettings,
) => {
  const { keyring } = notification;
  // One guard for every call out of the notification plugins: channels and OAuth providers.
  const egress = createEgress({ allowPrivate: env.WEBHOOK_ALLOW_PRIVATE });
  return [
    catalogPlugin,
    // Monitoring plugins register their notification sources with it, so it comes before them.
    createNotificationPlugin({
      baseUrl: env.BASE_URL,
      frontendUrl: env.FRONTEND_URL,
      sendQuota: perHour(env.NOTIFICATIONS_PER_CALLER_PER_HOUR),
      inboxStreams: {
        perUser: env.INBOX_STREAMS_PER_USER,
        perProcess: env.INBOX_STREAMS_PER_PROCESS,
      },
      egress,
      ...notification,
      reminders: {
        minIntervalSeconds: env.REMINDER_MIN_INTERVAL_SECONDS,
        pollMs: env.REMINDER_POLL_MS,
        ...notification.reminders,
      },
      delivery: {
        retryDelaysMs: env.DELIVERY_RETRY_DELAYS,
        maxAttempts: env.DELIVERY_RETRY_DELAYS.length + 1,
        leaseMs: env.DELIVERY_LEASE_MS,
        sendTimeoutMs: env.DELIVERY_SEND_TIMEOUT_MS,
        ...notification.delivery,
      },
      keyring,
    }),
    createMaintenancePlugin(),
    createHealthcheckPlugin({
      targets: { allow: env.CHECK_TARGETS_ALLOW, deny: env.CHECK_TARGETS_DENY },
      runRateLimit: perMinute(env.CHECK_RUN_RATE_LIMIT),
      beatRateLimit: perMinute(env.HEARTBEAT_RATE_LIMIT),
      secrets: keyring,
      scheduler: {
        concurrency: env.CHECK_CONCURRENCY,
        maxPerHost: env.CHECK_MAX_PER_HOST,
        maxPerOwner: env.CHECK_MAX_PER_OWNER,
        retentionMs: env.CHECK_RESULT_RETENTION_DAYS * 24 * 60 * 60 * 1_000,
      },
    }),
    createIncidentPlugin(),
    // Reads catalog, healthcheck, incident and maintenance through their contracts.
    createStatuspagePlugin({
      publicUrl: env.FRONTEND_URL,
      apiUrl: env.BASE_URL,
      keyring,
      subscribeLimits: {
        perPage: perHour(env.STATUSPAGE_SUBSCRIBES_PER_PAGE),
        perAddress: perHour(env.STATUSPAGE_SUBSCRIBES_PER_ADDRESS),
      },
    }),
    // Channels register their strategies with notification, so they come after it.
    ...channelPlugins(egress, smtp),
  ]
    .filter((mounted) => !extra.some((plugin) => plugin.id === mounted.id))
    .concat(extra) as unknown as readonly AnyPlugin[];
};

/** The OpenID Connect sign-in of `OIDC_*`, or none when it is not configured. */
function oidcSettings(env: Env): OidcSettings | undefined {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return undefined;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME,
    scopes: env.OIDC_SCOPES,
    allowInsecureIssuer: env.OIDC_ALLOW_INSECURE_ISSUER,
  };
}

/**
 * Every plugin the server mounts, in start-up and migration order. Auth comes first: it
 * authenticates every request, and it is told every other plugin's access rules (for
 * `getAccessRules`, role checks and the `admin` role) and contracts (read rules, resource types). `auth` overrides its settings (tests, bench).
 */
export function createPlugins(
  env: Env,
  auth: Partial<AuthConfig> = {},
  /** Mounted last (tests add channel plugins here). */
  extra: readonly AnyPlugin[] = [],
  /** Settings of the notification plugin (tests: a quicker delivery queue). */
  notification: NotificationOptions = {},
  /** Settings of the e-mail channel (tests: trust the test server's certificate). */
  smtp: SmtpSettings = {},
): readonly AnyPlugin[] {
  // One keyring seals every stored secret (channel settings and health-check passwords alike)
  // and gives auth the keys that sign device cookies.
  const keyring = notification.keyring ?? Keyring.ephemeral();
  const guarded = guardedPlugins(env, extra, { ...notification, keyring }, smtp);
  const authPlugin = createAuthPlugin({
    baseUrl: env.BASE_URL,
    frontendUrl: env.FRONTEND_URL,
    admin: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    accessRules: guarded.flatMap((plugin) => plugin.accessRules),
    contracts: guarded.map((plugin) => plugin.contract),
    rateLimits: {
      callsPerKey: perMinute(env.API_KEY_RATE_LIMIT),
      failedAuthPerIp: perMinute(env.AUTH_FAILURE_RATE_LIMIT),
      failedLoginsPerAccount: perHour(env.ACCOUNT_FAILURE_RATE_LIMIT),
      failedLoginsPerAccountAndAddress: perHour(env.ACCOUNT_ADDRESS_FAILURE_RATE_LIMIT),
      failedLoginsPerDevice: perHour(env.DEVICE_FAILURE_RATE_LIMIT),
    },
    deviceCookieKeys: keyring.derivedKeys('auth device cookies'),
    // Behind a proxy the socket is the proxy's; its last x-forwarded-for entry is the client.
    trustProxy: env.TRUST_PROXY,
    oidc: oidcSettings(env),
    ...auth,
  });
  return [authPlugin, ...guarded];
}
