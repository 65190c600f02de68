import type { HealthcheckContract } from '@checkline/healthcheck/contract';
import type { NotificationContract } from '@checkline/notification/contract';
import type { ContractRouterClient } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract-client.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 18 item 5 and issue 19 item 1, walked over every schema the server publishes: each
 * strategy's config, userConfig and layoutConfig (getStrategies, getMyChannels) and each check
 * type's config (getHealthCheckTypes). A field the server keeps secret or validates as a colour
 * is marked and described in what a form is generated from; a config with a secret names the
 * destination the secret is bound to.
 */
type Contracts = { notification: NotificationContract; healthcheck: HealthcheckContract };
type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  pattern?: string;
  [mark: `x-${string}`]: unknown;
};

const COLOUR_PATTERN = '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';

/** Every field of a published schema by its dotted path (`*` for items), wrappers folded in. */
function fieldsOf(schema: JsonSchema, path: string[] = [], found = new Map<string, JsonSchema>()) {
  const options = [...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  const own = options.reduce<JsonSchema>((merged, option) => ({ ...option, ...merged }), schema);
  if (path.length > 0) found.set(path.join('.'), { ...found.get(path.join('.')), ...own });
  for (const [key, field] of Object.entries(own.properties ?? {}))
    fieldsOf(field, [...path, key], found);
  if (own.items) fieldsOf(own.items, [...path, '*'], found);
  if (typeof own.additionalProperties === 'object')
    fieldsOf(own.additionalProperties, [...path, '*'], found);
  for (const option of options) if (option.properties) fieldsOf(option, path, found);
  return found;
}

interface PublishedLayer {
  name: string;
  schema: JsonSchema;
  /** The paths the server keeps secret in this layer (what it answers as set or unset). */
  secretPaths: string[];
}

const STRATEGY_CONFIGS: Record<string, Record<string, unknown>> = {
  'notification-smtp.smtp': { host: 'smtp.example.com', fromAddress: 'checkline@example.com' },
  'notification-webhook.webhook': {},
  'notification-slack.slack': { clientId: '1.2', clientSecret: 'slack-client-secret' },
  'notification-teams.teams': {},
  'notification-discord.discord': {},
  'notification-telegram.telegram': { botToken: '42:telegram-token' },
  'notification-sms.sms': {
    accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
    authToken: 'twilio-token',
    from: '+14155550100',
  },
  'notification-ntfy.ntfy': {},
  'notification-gotify.gotify': {},
};

let server: TestServer;
let admin: ContractRouterClient<Contracts>;
const layers: PublishedLayer[] = [];

beforeAll(async () => {
  server = await createTestServer();
  const { cookie } = await server.adminSession();
  admin = contractClient<Contracts>(() => server, { cookie, origin: testEnv.BASE_URL });
  // Every strategy configured and enabled, so getMyChannels lists each one's userConfig.
  for (const [strategyId, config] of Object.entries(STRATEGY_CONFIGS)) {
    await admin.notification.updateStrategy({ strategyId, enabled: true, config });
  }
  const { strategies } = await admin.notification.getStrategies({});
  for (const strategy of strategies) {
    for (const [layer, secrets] of [
      ['config', strategy.configSecrets],
      ['layoutConfig', strategy.layoutSecrets],
    ] as const) {
      const schema = strategy.schemas[layer];
      if (schema) {
        layers.push({
          name: `${strategy.strategyId} ${layer}`,
          schema,
          secretPaths: Object.keys(secrets),
        });
      }
    }
  }
  const { channels } = await admin.notification.getMyChannels({});
  for (const channel of channels) {
    if (!channel.userConfigSchema) continue;
    layers.push({
      name: `${channel.strategyId} userConfig (getMyChannels)`,
      schema: channel.userConfigSchema,
      secretPaths: Object.keys(channel.configSecrets),
    });
  }
  const { types } = await admin.healthcheck.getHealthCheckTypes({});
  for (const type of types) {
    const schema = type.configSchema as JsonSchema;
    layers.push({
      name: `check type ${type.id}`,
      schema,
      // What the server seals and never answers (SECRET_CONFIG_KEYS) wherever the type has it.
      secretPaths: ['password'].filter((key) => schema.properties?.[key] !== undefined),
    });
  }
});
afterAll(() => server?.close());

describe('published config schemas', () => {
  it('cover every strategy layer and check type the server has', () => {
    const names = layers.map((layer) => layer.name);
    for (const expected of [
      'notification-smtp.smtp layoutConfig',
      'notification-telegram.telegram config',
      ...Object.keys(STRATEGY_CONFIGS).map((id) => `${id} config`),
      'notification-ntfy.ntfy userConfig (getMyChannels)',
      'notification-gotify.gotify userConfig (getMyChannels)',
      'check type healthcheck.postgres',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('mark and describe every field the server keeps secret', () => {
    const unmarked = layers.flatMap(({ name, schema, secretPaths }) => {
      const fields = fieldsOf(schema);
      return secretPaths
        .filter((path) => {
          const field = fields.get(path.replace(/\.\d+(?=\.|$)/g, '.*'));
          return field?.['x-secret'] !== true || !field.description;
        })
        .map((path) => `${name}: ${path}`);
    });
    expect(unmarked).toEqual([]);
  });

  it('keep every secret the schema marks among those the server keeps secret', () => {
    const unkept = layers.flatMap(({ name, schema, secretPaths }) =>
      [...fieldsOf(schema)]
        .filter(([path, field]) => field['x-secret'] === true && !path.includes('*'))
        .filter(([path]) => !secretPaths.includes(path))
        .map(([path]) => `${name}: ${path}`),
    );
    expect(unkept).toEqual([]);
  });

  it('mark and describe every field validated as a colour', () => {
    const colours = layers.flatMap(({ name, schema }) =>
      [...fieldsOf(schema)]
        .filter(([, field]) => field.pattern === COLOUR_PATTERN || field['x-color'] === true)
        .map(([path, field]) => ({
          field: `${name}: ${path}`,
          marked: field['x-color'] === true && field.pattern === COLOUR_PATTERN,
          described: Boolean(field.description),
        })),
    );
    expect(colours.length).toBeGreaterThan(0);
    for (const colour of colours) {
      expect(colour).toEqual({ field: colour.field, marked: true, described: true });
    }
  });

  it('name a destination in every layer that holds a secret', () => {
    const unbound = layers
      .filter(({ schema }) => [...fieldsOf(schema).values()].some((field) => field['x-secret']))
      .filter(({ schema }) => ![...fieldsOf(schema).values()].some((f) => f['x-destination']))
      .map(({ name }) => name);
    expect(unbound).toEqual([]);
  });
});
