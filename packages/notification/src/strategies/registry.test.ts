import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotificationStrategyRegistry, strategyUseRule } from './registry.ts';
import type { ContactResolution } from '@checkline/notification-node';
import { testStrategy } from '../testing/test-strategy.ts';
import { versionedSchema } from '@checkline/notification-node';

const userConfig = versionedSchema({ version: 1, schema: z.object({ phone: z.string() }) });

/** An account-linking definition with every required part. */
const completeOAuth = {
  clientId: () => 'id',
  clientSecret: () => 'secret',
  scopes: ['chat:write'],
  authorizationUrl: () => 'https://example.test/auth',
  tokenUrl: () => 'https://example.test/token',
  extractExternalId: () => 'U1',
};

describe('NotificationStrategyRegistry', () => {
  it('qualifies ids with the owner and makes one use rule per strategy', () => {
    const registry = new NotificationStrategyRegistry();
    registry.register('notification-smtp', testStrategy({ id: 'smtp', displayName: 'E-mail' }));
    registry.register(
      'notification-sms',
      testStrategy({
        id: 'sms',
        userConfig,
        contactResolution: { type: 'user-config', field: 'phone' },
      }),
    );
    expect(registry.list().map((entry) => [entry.qualifiedId, entry.ownerPluginId])).toEqual([
      ['notification-smtp.smtp', 'notification-smtp'],
      ['notification-sms.sms', 'notification-sms'],
    ]);
    expect(registry.get('notification-smtp.smtp')?.displayName).toBe('E-mail');
    expect(registry.accessRules()).toEqual([
      {
        id: 'notification-smtp.strategy.smtp.use',
        pluginId: 'notification-smtp',
        description: 'Receive notifications through the notification-smtp.smtp channel',
        // Every subscriber receives through the channels: the subscriber role holds it.
        subscriber: true,
      },
      strategyUseRule('notification-sms', 'sms'),
    ]);
  });

  it('lets two plugins use the same local id under their own names', () => {
    const registry = new NotificationStrategyRegistry();
    registry.register('slack', testStrategy({ id: 'chat' }));
    registry.register('teams', testStrategy({ id: 'chat' }));
    expect(registry.accessRules().map((rule) => rule.id)).toEqual([
      'slack.strategy.chat.use',
      'teams.strategy.chat.use',
    ]);
  });

  it('refuses a duplicate, naming both owners', () => {
    const registry = new NotificationStrategyRegistry();
    registry.register('slack', testStrategy({ id: 'chat' }));
    expect(() => registry.register('slack', testStrategy({ id: 'chat' }))).toThrow(
      'notification strategy slack.chat is registered twice: first by plugin slack, again by plugin slack',
    );
  });

  it('refuses an id that would name another plugin', () => {
    const registry = new NotificationStrategyRegistry();
    expect(() => registry.register('evil', testStrategy({ id: 'slack.chat' }))).toThrow(
      /invalid id/,
    );
    expect(registry.list()).toEqual([]);
  });

  it('refuses registration once frozen', () => {
    const registry = new NotificationStrategyRegistry();
    registry.freeze();
    expect(() => registry.register('slack', testStrategy())).toThrow(
      'slack.test registered after start-up',
    );
  });

  it.each([
    [
      'config',
      { config: { version: 2, schema: z.object({}), migrations: [] } },
      'config: the migrations end at version 1, not at version 2',
    ],
    [
      'userConfig',
      {
        userConfig: {
          version: 3,
          schema: z.object({}),
          migrations: [
            { fromVersion: 2, toVersion: 3, description: 'x', migrate: (data: unknown) => data },
          ],
        },
      },
      'userConfig: migration 2→3 does not start at version 1',
    ],
    [
      'layoutConfig',
      { layoutConfig: { version: 0, schema: z.object({}), migrations: [] } },
      'layoutConfig: version must be an integer from 1',
    ],
  ])('checks the migration chain of %s at registration', (_layer, overrides, message) => {
    const registry = new NotificationStrategyRegistry();
    expect(() => registry.register('sms', testStrategy(overrides))).toThrow(
      `notification strategy sms.test ${message}`,
    );
  });

  it.each([
    [{ type: 'auth-provider', provider: '' }, {}, 'needs the provider to ask'],
    [{ type: 'user-config', field: 'phone' }, {}, 'needs a userConfig'],
    [{ type: 'user-config', field: '' }, { userConfig }, 'needs the field of userConfig'],
    [{ type: 'oauth-link' }, {}, 'needs an oauth definition'],
    [{ type: 'custom' }, {}, 'needs a resolve function'],
    [{ type: 'pigeon' }, {}, 'unknown contactResolution type pigeon'],
  ])('refuses the contact resolution %j when incomplete', (contactResolution, extra, message) => {
    const registry = new NotificationStrategyRegistry();
    const strategy = testStrategy({
      ...extra,
      contactResolution: contactResolution as ContactResolution,
    });
    expect(() => registry.register('sms', strategy)).toThrow(message);
  });

  it.each([
    [
      'a misspelt field',
      { type: 'user-config', field: 'room' },
      z.object({ roomId: z.string(), muted: z.boolean().optional() }),
      'notification strategy chat.test: contactResolution user-config names field room, which userConfig does not have (its fields: roomId, muted)',
    ],
    [
      'a field that is not text',
      { type: 'user-config', field: 'muted' },
      z.object({ roomId: z.string(), muted: z.boolean().optional() }),
      'notification strategy chat.test: contactResolution user-config names field muted, which is not text but boolean',
    ],
    [
      'a userConfig that is not an object',
      { type: 'user-config', field: 'room' },
      z.string(),
      'notification strategy chat.test: contactResolution user-config needs a userConfig that is an object',
    ],
  ])(
    'refuses %s at registration, naming strategy and field',
    (_case, resolution, schema, message) => {
      const registry = new NotificationStrategyRegistry();
      const strategy = testStrategy({
        contactResolution: resolution as ContactResolution,
        userConfig: versionedSchema({ version: 1, schema: schema as z.ZodType }),
      });
      expect(() => registry.register('chat', strategy)).toThrow(message);
    },
  );

  it('finds the contact field under defaults, optionals and transforms', () => {
    const registry = new NotificationStrategyRegistry();
    const schema = z
      .object({ room: z.string().trim().default('ops').optional() })
      .transform((config) => config);
    const strategy = testStrategy({
      contactResolution: { type: 'user-config', field: 'room' },
      userConfig: versionedSchema({ version: 1, schema }),
    });
    expect(registry.register('chat', strategy).qualifiedId).toBe('chat.test');
  });

  it('accepts each complete contact resolution', () => {
    const registry = new NotificationStrategyRegistry();
    const oauth = completeOAuth;
    const resolutions: [string, ContactResolution, object][] = [
      ['a', { type: 'auth-email' }, {}],
      ['b', { type: 'auth-provider', provider: 'github' }, {}],
      ['c', { type: 'user-config', field: 'phone' }, { userConfig }],
      ['d', { type: 'oauth-link' }, { oauth }],
      ['e', { type: 'custom', resolve: () => Promise.resolve('x') }, {}],
    ];
    for (const [id, contactResolution, extra] of resolutions) {
      registry.register('p', testStrategy({ id, contactResolution, ...extra }));
    }
    expect(registry.list()).toHaveLength(5);
  });

  it.each([
    [{ tokenUrl: 'https://example.test/token' }, 'oauth tokenUrl is not a function'],
    [{ scopes: 'chat:write' }, 'oauth scopes is not an array'],
    [{ revoke: true }, 'oauth revoke is not a function'],
    [{ encodeState: () => 'x' }, 'oauth encodeState and decodeState come together'],
    [{ clientAuthentication: 'jwt' }, 'clientAuthentication jwt is neither basic nor body'],
  ])('refuses the oauth definition %j', (change, message) => {
    const registry = new NotificationStrategyRegistry();
    const oauth = { ...completeOAuth, ...change };
    const strategy = testStrategy({
      contactResolution: { type: 'oauth-link' },
      oauth: oauth as never,
    });
    expect(() => registry.register('p', strategy)).toThrow(message);
  });

  it('refuses an empty displayName and a missing send', () => {
    const registry = new NotificationStrategyRegistry();
    expect(() => registry.register('p', testStrategy({ displayName: '' }))).toThrow(
      'displayName is empty',
    );
    expect(() => registry.register('p', testStrategy({ send: undefined as never }))).toThrow(
      'send is not a function',
    );
  });
});
