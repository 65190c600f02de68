import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring, silentLogger } from '@checkline/core';
import { createDatabase, queryRows } from '@checkline/db';
import { testDatabaseUrl } from '@checkline/db/testing';
import { rotateSecrets } from '@checkline/notification';
import { secret, color, versionedSchema } from '@checkline/notification-node';
import { testChannelPlugin, testStrategy } from '@checkline/notification/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPlugins } from '../src/plugins.ts';
import { migrateAll } from '../src/start.ts';
import { createAdminKey } from './support/admin-key.ts';
import { runServerCommand } from './support/server-process.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

const SECRET = 'xoxb-hunter2-never-shown';
const USER_SECRET = 'pin-975310-never-shown';
const strategyId = 'test-channel.pager';
const useRule = 'test-channel.strategy.pager.use';

const pager = testStrategy({
  id: 'pager',
  displayName: 'Pager',
  icon: 'bell',
  adminInstructions: 'Create a token.',
  config: versionedSchema({
    version: 1,
    schema: z.object({ endpoint: z.string(), token: secret() }),
  }),
  layoutConfig: versionedSchema({
    version: 1,
    schema: z.object({ primaryColor: color().default('#0a7') }),
  }),
  userConfig: versionedSchema({
    version: 1,
    schema: z.object({ pin: secret().optional(), nickname: z.string().optional() }),
  }),
});

const serverKey = randomBytes(32);
/** The key the rotation test moves every secret to. */
const rotatedKey = randomBytes(32);
let server: TestServer;
let adminKey: string;

beforeAll(async () => {
  server = await createTestServer({
    plugins: createPlugins(testEnv, {}, [testChannelPlugin('test-channel', [pager])], {
      keyring: new Keyring(serverKey),
    }),
  });
  adminKey = await createAdminKey(server);
});
afterAll(() => server.close());

async function call(
  pluginId: string,
  procedure: string,
  input: unknown,
  auth: Record<string, string>,
) {
  const response = await server.request(`/api/${pluginId}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: testEnv.BASE_URL, ...auth },
    body: JSON.stringify({ [procedure]: input }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as Record<string, any>;
  return { status: response.status, text, body: response.status === 200 ? body[procedure] : body };
}

const asAdmin = (pluginId: string, procedure: string, input: unknown = {}) =>
  call(pluginId, procedure, input, { authorization: `Bearer ${adminKey}` });

async function userSession(email: string, roleIds: string[]) {
  const password = 'a sound password for tests';
  const created = await asAdmin('auth', 'createUser', { email, password, roleIds });
  expect(created.status).toBe(200);
  const { cookie } = await server.sessionOf(email, password);
  return { cookie };
}

async function rawConfig() {
  const rows = await queryRows<{ config: string }>(
    server.database.db,
    sql`select config::text as config from notification.strategy_settings where strategy_id = ${strategyId}`,
  );
  return rows[0]?.config;
}

const everything: string[] = [];
const remember = <T extends { text: string }>(answer: T) => {
  everything.push(answer.text);
  return answer;
};

describe('notification strategies over HTTP', () => {
  describe('works', () => {
    it('lists the strategy with its qualified id and JSON Schemas carrying x-secret and x-color', async () => {
      const answer = remember(await asAdmin('notification', 'getStrategies'));
      expect(answer.status).toBe(200);
      const listed = (answer.body.strategies as any[]).find(
        (entry) => entry.strategyId === strategyId,
      );
      expect(listed).toMatchObject({
        strategyId,
        ownerPluginId: 'test-channel',
        displayName: 'Pager',
        icon: 'bell',
        adminInstructions: 'Create a token.',
        contactResolution: 'auth-email',
        useRule,
        enabled: false,
        configured: false,
        config: null,
        schemas: {
          config: { properties: { token: { type: 'string', 'x-secret': true } } },
          layoutConfig: { properties: { primaryColor: { 'x-color': true, default: '#0a7' } } },
          userConfig: { properties: { pin: { 'x-secret': true } } },
        },
        versions: { config: 1, userConfig: 1, layoutConfig: 1 },
        problems: [],
      });
    });

    it('lists the .use rule in auth and lets a role hold it', async () => {
      const rules = await asAdmin('auth', 'getAccessRules');
      expect(rules.body.accessRules).toContainEqual(
        expect.objectContaining({ id: useRule, pluginId: 'test-channel' }),
      );
      const role = await asAdmin('auth', 'createRole', { name: 'pager-users', accessRules: [] });
      expect(role.status).toBe(200);
      const updated = await asAdmin('auth', 'updateRole', {
        id: role.body.id,
        accessRules: [useRule],
      });
      expect(updated.status).toBe(200);
      expect(updated.body.accessRules).toEqual([useRule]);
    });

    it('stores the secret encrypted, never answers it, and keeps it when a write leaves it out', async () => {
      const configured = remember(
        await asAdmin('notification', 'updateStrategy', {
          strategyId,
          enabled: true,
          config: { endpoint: 'https://pager.example.com', token: SECRET },
          layoutConfig: { primaryColor: '#123456' },
        }),
      );
      expect(configured.status).toBe(200);
      expect(configured.body).toMatchObject({
        enabled: true,
        configured: true,
        config: { endpoint: 'https://pager.example.com' },
        configSecrets: { token: true },
        layoutConfig: { primaryColor: '#123456' },
      });
      const raw = await rawConfig();
      expect(raw).toContain('enc:v1:');
      expect(raw).not.toContain(SECRET);
      const kept = remember(
        await asAdmin('notification', 'updateStrategy', {
          strategyId,
          config: { endpoint: 'https://pager2.example.com' },
        }),
      );
      expect(kept.body).toMatchObject({ configured: true, configSecrets: { token: true } });
      remember(await asAdmin('notification', 'getStrategies'));
    });

    it('shows a user holding the .use rule the channel the admin enabled and configured', async () => {
      const role = await asAdmin('auth', 'createRole', {
        name: 'pager-readers',
        accessRules: [useRule],
      });
      const user = await userSession('pager-user@example.com', [role.body.id]);
      const channels = remember(await call('notification', 'getMyChannels', {}, user));
      expect(channels.status).toBe(200);
      expect(channels.body.channels).toEqual([
        expect.objectContaining({
          strategyId,
          enabled: true,
          linked: false,
          configSecrets: { pin: false },
        }),
      ]);
      expect(channels.body.channels[0].userConfigSchema.properties.pin['x-secret']).toBe(true);
      // No account to link on a channel without oauth.
      expect(channels.body.channels[0]).not.toHaveProperty('link');
      const saved = remember(
        await call(
          'notification',
          'updateMyChannel',
          { strategyId, enabled: false, config: { pin: USER_SECRET, nickname: 'me' } },
          user,
        ),
      );
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        enabled: false,
        config: { nickname: 'me' },
        configSecrets: { pin: true },
      });
    });

    it('re-encrypts the secrets under a new key with rotateSecrets, then not again', async () => {
      const rotating = new Keyring(rotatedKey, [serverKey]);
      const first = await rotateSecrets(server.database.db, rotating, silentLogger);
      expect(first).toMatchObject({ failed: 0 });
      expect(first.reencrypted).toBeGreaterThanOrEqual(2);
      expect(await rawConfig()).toContain(`enc:v1:${rotating.currentKeyId}:`);
      const second = await rotateSecrets(server.database.db, rotating, silentLogger);
      expect(second).toMatchObject({ reencrypted: 0, rowsChanged: 0, failed: 0 });
    });
  });

  describe('rejects bad input', () => {
    it('answers BAD_REQUEST for a bad colour, with the path', async () => {
      const answer = await asAdmin('notification', 'updateStrategy', {
        strategyId,
        layoutConfig: { primaryColor: 'red' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'BAD_REQUEST',
        issues: [
          { path: 'layoutConfig.primaryColor', message: 'Expected a colour as #rgb or #rrggbb' },
        ],
      });
    });

    it('answers NOT_FOUND for an unknown strategy', async () => {
      const answer = await asAdmin('notification', 'updateStrategy', {
        strategyId: 'test-channel.nope',
        enabled: false,
      });
      expect(answer.status).toBe(404);
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses updateMyChannel to a user without the .use rule, naming it', async () => {
      const user = await userSession('no-pager@example.com', []);
      const answer = await call(
        'notification',
        'updateMyChannel',
        { strategyId, enabled: false },
        user,
      );
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(`Missing access: ${useRule}`);
      const channels = await call('notification', 'getMyChannels', {}, user);
      expect(channels.body.channels).toEqual([]);
    });

    it('refuses the strategy procedures to a user without strategy.manage', async () => {
      const user = await userSession('not-admin@example.com', []);
      const answer = await call('notification', 'getStrategies', {}, user);
      expect(answer.status).toBe(403);
    });
  });

  it('never answers or logs a secret', () => {
    expect(everything.length).toBeGreaterThan(4);
    for (const text of [...everything, ...server.logLines]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(USER_SECRET);
    }
  });
});

describe('pnpm secrets:rotate', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'checkline-rotate-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const logLines = (stdout: string) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const storedPassword = async (db: typeof server.database.db, id: string) =>
    (
      await queryRows<{ password: string }>(
        db,
        sql`select config->>'password' as password from healthcheck.health_checks where id = ${id}`,
      )
    )[0]?.password;

  it('runs as a command and logs its final count', async () => {
    const url = testDatabaseUrl(server.database);
    const newKey = randomBytes(32);
    // A postgres check's password, sealed under the server's key: the command moves it too.
    const system = await asAdmin('catalog', 'createSystem', { name: 'rotated-warehouse' });
    const check = await asAdmin('healthcheck', 'createHealthCheck', {
      systemId: system.body.id,
      name: 'warehouse db',
      type: 'healthcheck.postgres',
      config: { host: '127.0.0.1', password: 'pg-rotated-s3cret', ssl: 'disable' },
      intervalSeconds: 3_600,
      timeoutMs: 5_000,
    });
    expect(check.status).toBe(200);
    expect(await storedPassword(server.database.db, check.body.id)).toMatch(
      `enc:v1:${new Keyring(serverKey).currentKeyId}:`,
    );
    const { code, stdout, stderr } = await runServerCommand('secrets:rotate', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: newKey.toString('base64'),
      ENCRYPTION_KEYS_OLD: `${rotatedKey.toString('base64')},${serverKey.toString('base64')}`,
      // On PostgreSQL the command rotates this file's database; PGlite's is in this process.
      ...(url && { DATABASE_URL: url }),
    });
    expect(stderr).toBe('');
    const done = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'secret rotation done');
    const both = logLines(stdout).find((line) => line.msg === 'secrets:rotate done');
    if (url) {
      expect(code).toBe(0);
      expect(done).toMatchObject({ keyId: new Keyring(newKey).currentKeyId, failed: 0 });
      expect(done?.reencrypted).toBeGreaterThanOrEqual(2);
      expect(await rawConfig()).toContain(`enc:v1:${new Keyring(newKey).currentKeyId}:`);
      expect(both).toMatchObject({
        notification: { failed: 0 },
        healthcheck: { rows: 1, reencrypted: 1, rowsChanged: 1, failed: 0 },
      });
      const moved = await storedPassword(server.database.db, check.body.id);
      expect(moved).toMatch(`enc:v1:${new Keyring(newKey).currentKeyId}:`);
      expect(
        new Keyring(newKey).decrypt(
          moved!,
          `healthcheck.health_checks|${check.body.id}|config|password`,
        ),
      ).toBe('pg-rotated-s3cret');
    } else {
      expect(code).toBe(0);
      expect(done).toMatchObject({ rows: 0, reencrypted: 0, failed: 0 });
      expect(both).toMatchObject({ healthcheck: { rows: 0, reencrypted: 0, failed: 0 } });
    }
    expect(stdout).not.toContain(newKey.toString('base64'));
    expect(stdout).not.toContain('pg-rotated-s3cret');
  }, 130_000);

  it('exits 1 when a health-check password opens under no key, naming its check', async () => {
    // The command's own PGlite folder, seeded here: one password sealed at its check, and the
    // same sealed value copied into another check, where it does not open.
    const seeded = mkdtempSync(join(tmpdir(), 'checkline-rotate-copied-'));
    try {
      const [ownerId, copyId] = [randomUUID(), randomUUID()];
      const sealed = new Keyring(serverKey).encrypt(
        'pg-copied-s3cret',
        `healthcheck.health_checks|${ownerId}|config|password`,
      );
      const database = await createDatabase({ dataDir: seeded });
      try {
        await migrateAll(database, createPlugins(testEnv));
        for (const [id, name] of [
          [ownerId, 'owner'],
          [copyId, 'copy'],
        ] as const) {
          const config = JSON.stringify({ host: '127.0.0.1', password: sealed });
          await database.db.execute(sql`
            insert into healthcheck.health_checks
              (id, system_id, name, type, config, interval_seconds, timeout_ms, next_run_at)
            values (${id}, ${randomUUID()}, ${name}, 'healthcheck.postgres',
              ${config}::jsonb, 3600, 5000, now())`);
        }
      } finally {
        await database.close();
      }
      const newKey = randomBytes(32);
      const { code, stdout } = await runServerCommand('secrets:rotate', {
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATA_DIR: seeded,
        ENCRYPTION_KEY: newKey.toString('base64'),
        ENCRYPTION_KEYS_OLD: serverKey.toString('base64'),
      });
      expect(code).toBe(1);
      const lines = logLines(stdout);
      expect(lines.find((line) => line.msg === 'secret rotation: row skipped')).toMatchObject({
        table: 'healthcheck.health_checks',
        healthCheckId: copyId,
      });
      expect(lines.find((line) => line.msg === 'secrets:rotate done')).toMatchObject({
        notification: { failed: 0 },
        healthcheck: { rows: 2, reencrypted: 1, rowsChanged: 1, failed: 1 },
      });
      expect(stdout).toContain('notification 0, healthcheck 1');
      expect(stdout).not.toContain('pg-copied-s3cret');
      expect(stdout).not.toContain(sealed);
    } finally {
      rmSync(seeded, { recursive: true, force: true });
    }
  }, 130_000);

  it('refuses to run in production without ENCRYPTION_KEY, saying so', async () => {
    const { code, stdout } = await runServerCommand('secrets:rotate', {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('ENCRYPTION_KEY: required when NODE_ENV=production');
  });
});
