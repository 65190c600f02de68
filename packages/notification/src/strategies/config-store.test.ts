import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@checkline/core';
import { testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { preferences, strategySettings } from '../db/schema.ts';
import { listMyChannels, updateMyChannel } from '../preferences/service.ts';
import { NotificationState } from '../state.ts';
import { testStrategy } from '../testing/test-strategy.ts';
import { Keyring } from '@checkline/core';
import { NotificationStrategyRegistry } from './registry.ts';
import { color, secret } from '@checkline/notification-node';
import { rotateSecrets } from './secret-rotation.ts';
import { listStrategies, updateStrategy } from './service.ts';
import { loadStrategySettings, loadUserChannels } from './settings-store.ts';
import type { NotificationStrategy } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';

const configV1 = versionedSchema({
  version: 1,
  schema: z.object({ host: z.string(), password: secret().optional() }),
});
const configV2 = versionedSchema({
  version: 2,
  schema: z.object({ host: z.string(), port: z.number(), password: secret().optional() }),
  migrations: [
    {
      fromVersion: 1,
      toVersion: 2,
      description: 'port added, 587 by default',
      migrate: (data) => {
        const { host } = data as { host: string };
        if (host === 'broken') throw new Error('host cannot be migrated');
        return { ...(data as object), port: 587 };
      },
    },
  ],
});
const layoutConfig = versionedSchema({
  version: 1,
  schema: z.object({ primaryColor: color().default('#0a7'), footerText: z.string().default('') }),
});
const userV1 = versionedSchema({
  version: 1,
  schema: z.object({ phone: z.string(), pin: secret().optional() }),
});
const userV2 = versionedSchema({
  version: 2,
  schema: z.object({ phone: z.string(), country: z.string(), pin: secret().optional() }),
  migrations: [
    {
      fromVersion: 1,
      toVersion: 2,
      description: 'country added',
      migrate: (data) => ({ ...(data as object), country: 'CH' }),
    },
  ],
});

const SECRET = 'hunter2-very-secret';
const folder = fileURLToPath(new URL('../../drizzle', import.meta.url));
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase([{ pluginId: 'notification', folder }]);
});
afterAll(() => database.close());

/** A plugin state over the test database, with its strategies registered under `owner`. */
function stateWith(
  strategies: Partial<NotificationStrategy>[],
  keyring: Keyring = Keyring.ephemeral(),
  owner = `ch-${randomBytes(3).toString('hex')}`,
) {
  const registry = new NotificationStrategyRegistry();
  for (const overrides of strategies) registry.register(owner, testStrategy(overrides));
  const state = new NotificationState({ strategies: registry, keyring });
  state.attach(database.db, silentLogger);
  return { state, owner };
}

const inTransaction = <T>(task: (db: typeof database.db) => Promise<T>) =>
  database.db.transaction((tx) => task(tx));

async function rawStrategyRow(strategyId: string) {
  const [row] = await database.db
    .select({
      text: sql<string>`${strategySettings.config}::text`,
      layoutText: sql<string>`${strategySettings.layoutConfig}::text`,
      version: strategySettings.configVersion,
    })
    .from(strategySettings)
    .where(eq(strategySettings.strategyId, strategyId));
  return row!;
}

describe('strategy config store', () => {
  describe('works', () => {
    it('stores a secret encrypted, never shows it, and hands it to send decrypted', async () => {
      const { state, owner } = stateWith([{ id: 'mail', config: configV1, layoutConfig }]);
      const id = `${owner}.mail`;
      const view = await inTransaction((db) =>
        updateStrategy(state, db, {
          strategyId: id,
          enabled: true,
          config: { host: 'mx', password: SECRET },
        }),
      );
      expect(view).toMatchObject({
        enabled: true,
        configured: true,
        config: { host: 'mx' },
        configSecrets: { password: true },
      });
      expect(JSON.stringify(view)).not.toContain(SECRET);
      const raw = await rawStrategyRow(id);
      expect(raw.text).not.toContain(SECRET);
      expect(raw.text).toMatch(/"password": "enc:v1:[0-9a-f]{8}:/);
      const settings = (await loadStrategySettings(state, database.db, [id])).get(id)!;
      expect(settings).toMatchObject({
        enabled: true,
        configured: true,
        config: { host: 'mx', password: SECRET },
        layoutConfig: { primaryColor: '#0a7', footerText: '' },
        problems: [],
      });
    });

    it('keeps a secret the write leaves out and clears it on an explicit null', async () => {
      const { state, owner } = stateWith([{ id: 'mail', config: configV1 }]);
      const id = `${owner}.mail`;
      const update = (config: Record<string, unknown>) =>
        inTransaction((db) => updateStrategy(state, db, { strategyId: id, config }));
      await update({ host: 'mx', password: SECRET });
      const kept = await update({ host: 'mx2' });
      expect(kept).toMatchObject({ config: { host: 'mx2' }, configSecrets: { password: true } });
      expect((await loadStrategySettings(state, database.db, [id])).get(id)!.config).toEqual({
        host: 'mx2',
        password: SECRET,
      });
      const cleared = await update({ host: 'mx2', password: null });
      expect(cleared.configSecrets).toEqual({ password: false });
      expect((await loadStrategySettings(state, database.db, [id])).get(id)!.config).toEqual({
        host: 'mx2',
      });
      expect((await rawStrategyRow(id)).text).not.toContain('enc:v1');
    });

    it('migrates a v1 config to v2 on read and writes it back, the row version changing', async () => {
      const keyring = Keyring.ephemeral();
      const { state: before, owner } = stateWith([{ id: 'mail', config: configV1 }], keyring);
      const id = `${owner}.mail`;
      await inTransaction((db) =>
        updateStrategy(before, db, { strategyId: id, config: { host: 'mx', password: SECRET } }),
      );
      expect((await rawStrategyRow(id)).version).toBe(1);

      const { state: after } = stateWith([{ id: 'mail', config: configV2 }], keyring, owner);
      const [view] = await inTransaction((db) => listStrategies(after, db));
      expect(view).toMatchObject({
        configured: true,
        config: { host: 'mx', port: 587 },
        configSecrets: { password: true },
        versions: { config: 2 },
        problems: [],
      });
      const raw = await rawStrategyRow(id);
      expect(raw.version).toBe(2);
      expect(raw.text).toContain('"port": 587');
      expect(raw.text).not.toContain(SECRET);
      expect((await loadStrategySettings(after, database.db, [id])).get(id)!.config).toEqual({
        host: 'mx',
        port: 587,
        password: SECRET,
      });
    });

    it('reads secrets after rotation under a new key, then with the new key alone', async () => {
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      const { state: before, owner } = stateWith(
        [{ id: 'sms', config: configV1, userConfig: userV1 }],
        new Keyring(oldKey),
      );
      const id = `${owner}.sms`;
      const userId = randomUUID();
      const user = testPrincipal([`${owner}.strategy.sms.use`], { kind: 'user', id: userId });
      await inTransaction(async (db) => {
        await updateStrategy(before, db, {
          strategyId: id,
          config: { host: 'mx', password: SECRET },
        });
        await updateMyChannel(before, db, user, userId, {
          strategyId: id,
          config: { phone: '+41790000000', pin: '2468' },
        });
      });
      const oldKeyId = new Keyring(oldKey).currentKeyId;
      expect((await rawStrategyRow(id)).text).toContain(`enc:v1:${oldKeyId}:`);

      const rotating = new Keyring(newKey, [oldKey]);
      const first = await rotateSecrets(database.db, rotating, silentLogger);
      expect(first.reencrypted).toBeGreaterThanOrEqual(2);
      expect((await rawStrategyRow(id)).text).toContain(`enc:v1:${rotating.currentKeyId}:`);
      const second = await rotateSecrets(database.db, rotating, silentLogger);
      expect(second).toMatchObject({ reencrypted: 0, rowsChanged: 0 });
      expect(second.rows).toBe(first.rows);

      const { state: after } = stateWith(
        [{ id: 'sms', config: configV1, userConfig: userV1 }],
        new Keyring(newKey),
        owner,
      );
      expect((await loadStrategySettings(after, database.db, [id])).get(id)!.config).toEqual({
        host: 'mx',
        password: SECRET,
      });
      expect(
        (await loadUserChannels(after, database.db, id, [userId])).get(userId)!.config,
      ).toEqual({ phone: '+41790000000', pin: '2468' });
    });

    it('stores user settings with secrets encrypted and migrates them with write-back', async () => {
      const keyring = Keyring.ephemeral();
      const { state: before, owner } = stateWith([{ id: 'sms', userConfig: userV1 }], keyring);
      const id = `${owner}.sms`;
      const userId = randomUUID();
      const user = testPrincipal([`${owner}.strategy.sms.use`], { kind: 'user', id: userId });
      const channel = await inTransaction((db) =>
        updateMyChannel(before, db, user, userId, {
          strategyId: id,
          enabled: false,
          config: { phone: '+41790000000', pin: '2468' },
        }),
      );
      expect(channel).toMatchObject({
        enabled: false,
        config: { phone: '+41790000000' },
        configSecrets: { pin: true },
      });
      const [stored] = await database.db
        .select({
          text: sql<string>`${preferences.config}::text`,
          version: preferences.configVersion,
        })
        .from(preferences)
        .where(eq(preferences.userId, userId));
      expect(stored!.text).not.toContain('2468');
      expect(stored!.version).toBe(1);

      const { state: after } = stateWith([{ id: 'sms', userConfig: userV2 }], keyring, owner);
      const loaded = (await loadUserChannels(after, database.db, id, [userId])).get(userId)!;
      expect(loaded).toMatchObject({
        enabled: false,
        config: { phone: '+41790000000', country: 'CH', pin: '2468' },
        problems: [],
      });
      const [migrated] = await database.db
        .select({ version: preferences.configVersion })
        .from(preferences)
        .where(eq(preferences.userId, userId));
      expect(migrated!.version).toBe(2);
    });

    it('lists only channels the user may use that are enabled and configured', async () => {
      const { state, owner } = stateWith([
        { id: 'open', config: configV1 },
        { id: 'off', config: configV1 },
        { id: 'forbidden', config: configV1 },
      ]);
      await inTransaction(async (db) => {
        for (const id of ['open', 'forbidden']) {
          await updateStrategy(state, db, {
            strategyId: `${owner}.${id}`,
            enabled: true,
            config: { host: 'mx' },
          });
        }
        await updateStrategy(state, db, { strategyId: `${owner}.off`, config: { host: 'mx' } });
      });
      const userId = randomUUID();
      const user = testPrincipal([`${owner}.strategy.open.use`, `${owner}.strategy.off.use`], {
        kind: 'user',
        id: userId,
      });
      const channels = await inTransaction((db) => listMyChannels(state, db, user, userId));
      expect(channels.map((channel) => [channel.strategyId, channel.enabled])).toEqual([
        [`${owner}.open`, true],
      ]);
    });
  });

  describe('rejects bad input', () => {
    it('refuses a bad colour with the path of the field', async () => {
      const { state, owner } = stateWith([{ id: 'mail', config: configV1, layoutConfig }]);
      await expect(
        inTransaction((db) =>
          updateStrategy(state, db, {
            strategyId: `${owner}.mail`,
            layoutConfig: { primaryColor: 'red' },
          }),
        ),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: {
          issues: [
            { path: 'layoutConfig.primaryColor', message: 'Expected a colour as #rgb or #rrggbb' },
          ],
        },
      });
    });

    it('refuses to enable a strategy without a valid config, and an unknown strategy', async () => {
      const { state, owner } = stateWith([{ id: 'mail', config: configV1 }]);
      await expect(
        inTransaction((db) =>
          updateStrategy(state, db, { strategyId: `${owner}.mail`, enabled: true }),
        ),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/not configured/),
      });
      await expect(
        inTransaction((db) =>
          updateStrategy(state, db, { strategyId: `${owner}.nope`, enabled: true }),
        ),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('refuses a value that looks encrypted instead of storing it as plain text', async () => {
      const keyring = Keyring.ephemeral();
      const { state, owner } = stateWith([{ id: 'mail', config: configV1 }], keyring);
      const ciphertext = keyring.encrypt('"x"', 'anywhere');
      await expect(
        inTransaction((db) =>
          updateStrategy(state, db, { strategyId: `${owner}.mail`, config: { host: ciphertext } }),
        ),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'config.host' }] } });
    });

    it('reports a config that cannot be migrated, naming the step, and leaves the row alone', async () => {
      const keyring = Keyring.ephemeral();
      const { state: before, owner } = stateWith([{ id: 'mail', config: configV1 }], keyring);
      const id = `${owner}.mail`;
      await inTransaction((db) =>
        updateStrategy(before, db, {
          strategyId: id,
          enabled: true,
          config: { host: 'broken', password: SECRET },
        }),
      );
      const rawBefore = await rawStrategyRow(id);
      const { state: after } = stateWith([{ id: 'mail', config: configV2 }], keyring, owner);
      const [view] = await inTransaction((db) => listStrategies(after, db));
      expect(view).toMatchObject({
        strategyId: id,
        configured: false,
        config: null,
        problems: [
          {
            layer: 'config',
            message: 'migration 1→2 (port added, 587 by default): host cannot be migrated',
          },
        ],
      });
      expect(JSON.stringify(view)).not.toContain(SECRET);
      expect(await rawStrategyRow(id)).toEqual(rawBefore);
      const settings = (await loadStrategySettings(after, database.db, [id])).get(id)!;
      expect(settings).toMatchObject({ configured: false, problems: [{ layer: 'config' }] });

      // Over the unreadable config, a write must name every secret: none is dropped unasked.
      await expect(
        inTransaction((db) =>
          updateStrategy(after, db, { strategyId: id, config: { host: 'mx', port: 25 } }),
        ),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: {
          issues: [
            {
              path: 'config.password',
              message: expect.stringMatching(/cannot be read.*give this secret again/),
            },
          ],
        },
      });
      const replaced = await inTransaction((db) =>
        updateStrategy(after, db, {
          strategyId: id,
          config: { host: 'mx', port: 25, password: null },
        }),
      );
      expect(replaced).toMatchObject({
        configured: true,
        problems: [],
        configSecrets: { password: false },
      });
      expect((await rawStrategyRow(id)).version).toBe(2);
    });

    it('reports a secret moved to another strategy row as undecryptable', async () => {
      const { state, owner } = stateWith([
        { id: 'one', config: configV1 },
        { id: 'two', config: configV1 },
      ]);
      await inTransaction((db) =>
        updateStrategy(state, db, {
          strategyId: `${owner}.one`,
          config: { host: 'mx', password: SECRET },
        }),
      );
      const [one] = await database.db
        .select()
        .from(strategySettings)
        .where(eq(strategySettings.strategyId, `${owner}.one`));
      await database.db
        .insert(strategySettings)
        .values({ strategyId: `${owner}.two`, config: one!.config, configVersion: 1 });
      const settings = (await loadStrategySettings(state, database.db, [`${owner}.two`])).get(
        `${owner}.two`,
      )!;
      expect(settings.configured).toBe(false);
      expect(settings.problems).toEqual([
        {
          layer: 'config',
          message: expect.stringMatching(
            /^secret password cannot be decrypted: .*fails authentication/,
          ),
        },
      ]);
    });
  });

  describe("applies the strategy's own check (validateConfig)", () => {
    /** Refuses the host `internal` and the phone `+0`; records every value it was given. */
    function checkingStrategy() {
      const seen: unknown[] = [];
      const validateConfig: NotificationStrategy['validateConfig'] = ({ layer, value }) => {
        seen.push({ layer, value });
        const { host, phone } = value as { host?: string; phone?: string };
        if (layer === 'config' && host === 'internal') {
          return Promise.resolve([{ path: 'host', message: 'internal is not reachable' }]);
        }
        if (layer === 'userConfig' && phone === '+0') {
          return Promise.resolve([{ path: 'phone', message: 'not a number we can reach' }]);
        }
        return Promise.resolve([]);
      };
      return { seen, validateConfig };
    }

    it('refuses an administrator config it rejects, storing nothing, and stores one it accepts', async () => {
      const { seen, validateConfig } = checkingStrategy();
      const { state, owner } = stateWith([{ id: 'mail', config: configV1, validateConfig }]);
      const id = `${owner}.mail`;
      await inTransaction((db) =>
        updateStrategy(state, db, { strategyId: id, config: { host: 'mx', password: SECRET } }),
      );
      await expect(
        inTransaction((db) =>
          updateStrategy(state, db, {
            strategyId: id,
            enabled: true,
            config: { host: 'internal' },
          }),
        ),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: 'config.host', message: 'internal is not reachable' }] },
      });
      const settings = (await loadStrategySettings(state, database.db, [id])).get(id)!;
      expect(settings).toMatchObject({ enabled: false, config: { host: 'mx' } });
      // It judged the value as it would be stored: the secret the write left out kept.
      expect(seen).toEqual([
        { layer: 'config', value: { host: 'mx', password: SECRET } },
        { layer: 'config', value: { host: 'internal', password: SECRET } },
      ]);
    });

    it('is not asked about a value the schema refuses', async () => {
      const { seen, validateConfig } = checkingStrategy();
      const { state, owner } = stateWith([{ id: 'mail', config: configV1, validateConfig }]);
      await expect(
        inTransaction((db) =>
          updateStrategy(state, db, { strategyId: `${owner}.mail`, config: { host: 42 } }),
        ),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'config.host' }] } });
      expect(seen).toEqual([]);
    });

    it("refuses a user's settings it rejects, under the input's field", async () => {
      const { validateConfig } = checkingStrategy();
      const { state, owner } = stateWith([{ id: 'sms', userConfig: userV1, validateConfig }]);
      const userId = randomUUID();
      const user = testPrincipal([`${owner}.strategy.sms.use`], { kind: 'user', id: userId });
      const update = (phone: string) =>
        inTransaction((db) =>
          updateMyChannel(state, db, user, userId, {
            strategyId: `${owner}.sms`,
            config: { phone },
          }),
        );
      await expect(update('+0')).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: 'config.phone', message: 'not a number we can reach' }] },
      });
      const rows = await database.db
        .select()
        .from(preferences)
        .where(eq(preferences.userId, userId));
      expect(rows).toEqual([]);
      await expect(update('+41790000000')).resolves.toMatchObject({
        config: { phone: '+41790000000' },
      });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses updateMyChannel without the .use rule, naming it', async () => {
      const { state, owner } = stateWith([{ id: 'sms', userConfig: userV1 }]);
      const userId = randomUUID();
      const user = testPrincipal([], { kind: 'user', id: userId });
      await expect(
        inTransaction((db) =>
          updateMyChannel(state, db, user, userId, { strategyId: `${owner}.sms`, enabled: false }),
        ),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: `Missing access: ${owner}.strategy.sms.use`,
      });
    });
  });
});
