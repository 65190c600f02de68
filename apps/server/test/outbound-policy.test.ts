import { createHealthcheckPlugin } from '@checkline/healthcheck';
import type { Egress } from '@checkline/net';
import { createEgress } from '@checkline/net';
import { embeddedSpellings, recordConnectAttempts } from '@checkline/net/testing';
import type { DeliveryResult, NotificationStrategy } from '@checkline/notification-node';
import { sendContextFor } from '@checkline/notification-node/testing';
import { createDiscordStrategy } from '@checkline/notification-discord';
import { createGotifyStrategy } from '@checkline/notification-gotify';
import { createNtfyStrategy } from '@checkline/notification-ntfy';
import { createSlackStrategy } from '@checkline/notification-slack';
import { createSmsStrategy } from '@checkline/notification-sms';
import { SmtpTransports, smtpStrategy } from '@checkline/notification-smtp';
import { createTeamsStrategy } from '@checkline/notification-teams';
import { createTelegramStrategy } from '@checkline/notification-telegram';
import { webhookStrategy } from '@checkline/notification-webhook';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 items 2 and 12 across plugins: every outbound connection goes through the one policy
 * of @checkline/net. The server runs with the operator defaults (no CHECK_TARGETS_ALLOW,
 * WEBHOOK_ALLOW_PRIVATE unset). Every registered health-check type and notification strategy
 * must have a row in the tables below (a new one without a row fails the first tests), and each
 * destination field is given refused hosts: saving answers BAD_REQUEST naming the field, and a
 * run or a send of a stored refused destination fails before any socket is aimed at it. Every
 * destination uses one port, so the connection spy can tell them from the database's sockets.
 */
const DEST_PORT = 9;

/** Refused for every caller: loopback, unspecified, link-local, metadata, in every spelling. */
const refusedEverywhere = [
  '169.254.169.254',
  'metadata.google.internal',
  '127.0.0.1',
  '0.0.0.0',
  '::1',
  ...embeddedSpellings.filter(([, ipv4]) => ipv4 !== '10.0.0.1').map(([spelling]) => spelling),
];
/** Refused for channels only: health checks reach private networks by design. */
const refusedForChannels = [
  ...refusedEverywhere,
  '10.0.0.1',
  ...embeddedSpellings.filter(([, ipv4]) => ipv4 === '10.0.0.1').map(([spelling]) => spelling),
];

const isIpv6 = (host: string) => host.includes(':');
const inUrl = (host: string) => (isIpv6(host) ? `[${host}]` : host);
const isAddress = (host: string) => isIpv6(host) || /^[\d.]+$/.test(host);
const urlAt = (host: string, path = '/') => `https://${inUrl(host)}:${DEST_PORT}${path}`;

/** A check type's config aiming at `host`, and the field naming it; null for types that dial nothing. */
type CheckDestination = ((host: string) => { config: object; field: string } | undefined) | null;

const checkTypes: Record<string, CheckDestination> = {
  'healthcheck.http': (host) => ({
    config: { url: `http://${inUrl(host)}:${DEST_PORT}/` },
    field: 'config.url',
  }),
  'healthcheck.tcp': (host) => ({ config: { host, port: DEST_PORT }, field: 'config.host' }),
  'healthcheck.tls': (host) => ({ config: { host, port: DEST_PORT }, field: 'config.host' }),
  'healthcheck.postgres': (host) => ({ config: { host, port: DEST_PORT }, field: 'config.host' }),
  // The resolver field takes addresses only; the name asked about is never connected to.
  'healthcheck.dns': (host) =>
    isAddress(host)
      ? {
          config: { name: 'example.com', resolver: { address: host, port: DEST_PORT } },
          field: 'config.resolver.address',
        }
      : undefined,
  // Receives pings from the monitored system; opens no connection.
  'healthcheck.heartbeat': null,
};

/** Where a strategy connects: the layer and field holding the destination, and a whole layer. */
interface StrategyDestination {
  layer: 'config' | 'userConfig';
  field: string;
  value: (host: string) => Record<string, unknown>;
  /** The strategy built over `egress`, and a send aimed at `host` (settings as stored). */
  send: (egress: Egress, host: string) => Promise<DeliveryResult>;
}

const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
const SECRET = 'signing-secret-0123456789';

function sendWith<C, U>(
  strategy: NotificationStrategy<C, U, unknown>,
  input: Parameters<typeof sendContextFor<C, U>>[1],
) {
  return strategy.send(sendContextFor(strategy, input));
}

const strategies: Record<string, StrategyDestination[]> = {
  'notification-smtp.smtp': [
    {
      layer: 'config',
      field: 'host',
      value: (host) => ({ host, port: DEST_PORT, fromAddress: 'alerts@status.example' }),
      send: (egress, host) =>
        sendWith(smtpStrategy(new SmtpTransports(egress), egress), {
          contact: 'ops@example.com',
          config: { host, port: DEST_PORT, fromAddress: 'alerts@status.example' },
        }),
    },
  ],
  'notification-webhook.webhook': [
    {
      layer: 'config',
      field: 'url',
      value: (host) => ({ url: urlAt(host, '/hook'), signingSecret: SECRET }),
      send: (egress, host) =>
        sendWith(webhookStrategy(egress), {
          contact: '',
          config: { url: urlAt(host, '/hook'), signingSecret: SECRET },
        }),
    },
    {
      layer: 'userConfig',
      field: 'url',
      value: (host) => ({ url: urlAt(host, '/hook'), signingSecret: SECRET }),
      send: (egress, host) =>
        sendWith(webhookStrategy(egress), {
          contact: '',
          userConfig: { url: urlAt(host, '/hook'), signingSecret: SECRET },
        }),
    },
  ],
  'notification-slack.slack': [
    {
      layer: 'config',
      field: 'baseUrl',
      value: (host) => ({ clientId: 'client', clientSecret: 'secret', baseUrl: urlAt(host) }),
      send: (egress, host) =>
        sendWith(createSlackStrategy({ egress }), {
          contact: 'U123',
          accessToken: 'xoxb-token',
          config: { clientId: 'client', clientSecret: 'secret', baseUrl: urlAt(host) },
        }),
    },
  ],
  'notification-telegram.telegram': [
    {
      layer: 'config',
      field: 'apiBaseUrl',
      value: (host) => ({ botToken: '4242:AAH-token', apiBaseUrl: urlAt(host) }),
      send: (egress, host) =>
        sendWith(createTelegramStrategy({ egress }), {
          contact: '123456',
          config: { botToken: '4242:AAH-token', apiBaseUrl: urlAt(host) },
        }),
    },
  ],
  'notification-sms.sms': [
    {
      layer: 'config',
      field: 'apiBaseUrl',
      value: (host) => ({
        accountSid: ACCOUNT_SID,
        authToken: 'token',
        from: '+14155550100',
        apiBaseUrl: urlAt(host),
      }),
      send: (egress, host) =>
        sendWith(createSmsStrategy({ egress }), {
          contact: '+447700900123',
          config: {
            accountSid: ACCOUNT_SID,
            authToken: 'token',
            from: '+14155550100',
            apiBaseUrl: urlAt(host),
          },
        }),
    },
  ],
  'notification-ntfy.ntfy': [
    {
      layer: 'config',
      field: 'defaultServerUrl',
      value: (host) => ({ defaultServerUrl: urlAt(host), webhookHosts: ['*'] }),
      send: (egress, host) =>
        sendWith(createNtfyStrategy({ egress }), {
          contact: 'topic-abc',
          config: { defaultServerUrl: urlAt(host), webhookHosts: ['*'] },
        }),
    },
    {
      layer: 'userConfig',
      field: 'serverUrl',
      value: (host) => ({ serverUrl: urlAt(host), topic: 'topic-abc' }),
      send: (egress, host) =>
        sendWith(createNtfyStrategy({ egress }), {
          contact: 'topic-abc',
          config: { webhookHosts: ['*'] },
          userConfig: { serverUrl: urlAt(host), topic: 'topic-abc' },
        }),
    },
  ],
  'notification-gotify.gotify': [
    {
      layer: 'userConfig',
      field: 'serverUrl',
      value: (host) => ({ serverUrl: urlAt(host), appToken: 'token' }),
      send: (egress, host) =>
        sendWith(createGotifyStrategy({ egress }), {
          contact: urlAt(host),
          config: { webhookHosts: ['*'] },
          userConfig: { serverUrl: urlAt(host), appToken: 'token' },
        }),
    },
  ],
  'notification-discord.discord': [
    {
      layer: 'userConfig',
      field: 'webhookUrl',
      value: (host) => ({ webhookUrl: urlAt(host, '/api/webhooks/1/x') }),
      send: (egress, host) =>
        sendWith(createDiscordStrategy({ egress }), {
          contact: urlAt(host, '/api/webhooks/1/x'),
          config: { webhookHosts: ['*'] },
        }),
    },
  ],
  'notification-teams.teams': [
    {
      layer: 'userConfig',
      field: 'webhookUrl',
      value: (host) => ({ webhookUrl: urlAt(host, '/workflows/x') }),
      send: (egress, host) =>
        sendWith(createTeamsStrategy({ egress }), {
          contact: urlAt(host, '/workflows/x'),
          config: { webhookHosts: ['*'] },
        }),
    },
  ],
};

/** The operator defaults: nothing beyond the built-in policies allowed. */
const strictEnv = { ...testEnv, CHECK_TARGETS_ALLOW: [], WEBHOOK_ALLOW_PRIVATE: false };

let server: TestServer;
let session: Record<string, string>;
let systemId: string;

beforeAll(async () => {
  const plugins = createPlugins(strictEnv).map((plugin) =>
    plugin.id === 'healthcheck'
      ? createHealthcheckPlugin({
          targets: { allow: strictEnv.CHECK_TARGETS_ALLOW, deny: [] },
          runRateLimit: false,
          scheduler: { autoStart: false },
        })
      : plugin,
  );
  server = await createTestServer({ plugins });
  session = await server.adminSession();
  const created = await call('catalog', 'createSystem', { name: 'outbound-policy' });
  systemId = (created.body as { id: string }).id;
});
afterAll(async () => {
  await server.close();
});

async function call(pluginId: string, procedure: string, input: unknown) {
  const response = await server.request(`/api/${pluginId}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session },
    body: JSON.stringify({ [procedure]: input }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: (body[procedure] ?? body) as unknown };
}

/** The issues of a BAD_REQUEST answer, or the answer itself when it is something else. */
const issuesOf = (answer: { status: number; body: unknown }) =>
  answer.status === 400 ? (answer.body as { issues?: unknown }).issues : answer;

describe('every registered destination is in the tables', () => {
  it('lists every health-check type', async () => {
    const { body } = await call('healthcheck', 'getHealthCheckTypes', {});
    const types = (body as { types: { id: string }[] }).types.map((type) => type.id);
    expect(types.sort()).toEqual(Object.keys(checkTypes).sort());
  });

  it('lists every notification strategy', async () => {
    const { body } = await call('notification', 'getStrategies', {});
    const ids = (body as { strategies: { strategyId: string }[] }).strategies.map(
      (entry) => entry.strategyId,
    );
    expect(ids.sort()).toEqual(Object.keys(strategies).sort());
  });
});

const checkCases = Object.entries(checkTypes).flatMap(([type, destination]) =>
  destination === null
    ? []
    : refusedEverywhere.flatMap((host) => {
        const aimed = destination(host);
        return aimed ? [[type, host, aimed] as const] : [];
      }),
);

describe('health checks refuse every refused host on save and before each run', () => {
  it.each(checkCases)('%s at %s', async (type, host, { config, field }) => {
    const refused = await call('healthcheck', 'createHealthCheck', {
      systemId,
      name: `${type} ${host}`,
      type,
      config,
    });
    expect(issuesOf(refused)).toEqual([
      { path: field, message: expect.stringContaining('Target refused') },
    ]);

    // A check stored before the policy refused its host (or whose name now resolves elsewhere).
    const stored = await call('healthcheck', 'createHealthCheck', {
      systemId,
      name: `${type} ${host} stored`,
      type,
      config: checkTypes[type]!('93.184.215.14')!.config,
    });
    expect(stored.status).toBe(200);
    const { id } = stored.body as { id: string };
    await server.database.db.execute(
      sql`update healthcheck.health_checks set config = ${JSON.stringify(config)}::jsonb where id = ${id}`,
    );
    const connects = recordConnectAttempts();
    try {
      const run = await call('healthcheck', 'runHealthCheck', { id });
      expect(run.body).toMatchObject({
        status: 'fail',
        message: expect.stringContaining('Target refused'),
      });
      expect(connects.toPort(DEST_PORT)).toEqual([]);
    } finally {
      connects.stop();
    }
  });
});

const strategyCases = Object.entries(strategies).flatMap(([strategyId, destinations]) =>
  destinations.flatMap((destination) =>
    refusedForChannels.map(
      (host) =>
        [strategyId, `${destination.layer}.${destination.field}`, host, destination] as const,
    ),
  ),
);

describe('notification strategies refuse every refused host on save and on send', () => {
  const egress = createEgress();

  it.each(strategyCases)('%s %s at %s', async (strategyId, _at, host, destination) => {
    const saved =
      destination.layer === 'config'
        ? await call('notification', 'updateStrategy', {
            strategyId,
            config: destination.value(host),
          })
        : await call('notification', 'updateMyChannel', {
            strategyId,
            config: destination.value(host),
          });
    expect(issuesOf(saved)).toEqual([
      {
        path: `config.${destination.field}`,
        message: expect.stringContaining('Target refused'),
      },
    ]);

    const connects = recordConnectAttempts();
    try {
      const sent = await destination.send(egress, host);
      expect(sent).toMatchObject({
        success: false,
        permanent: true,
        error: expect.stringContaining('Target refused'),
      });
      expect(connects.toPort(DEST_PORT)).toEqual([]);
    } finally {
      connects.stop();
    }
  });
});
