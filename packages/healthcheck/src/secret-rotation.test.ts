import { randomBytes } from 'node:crypto';
import type { Logger } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresCheckType, PostgresCheckConfigSchema } from './check-types/postgres.ts';
import { configSecretAad } from './config-secrets.ts';
import { healthChecks } from './db/schema.ts';
import { rotateHealthCheckSecrets } from './secret-rotation.ts';
import { createTargetPolicy } from '@checkline/net';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  admin,
  createHealthcheckTestDatabase,
  loopbackAllowed,
  startHealthcheck,
} from './testing/harness.ts';
import { TestSealer } from './testing/sealer.ts';

/**
 * `secrets:rotate` for health checks: postgres passwords sealed under an older key are sealed
 * again under the current one, row by row; a value no key opens at its row is left and reported.
 * The machine's PostgreSQL (trust authentication) answers the runs.
 */
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const written = new TestSealer(oldKey);
const rotating = new TestSealer(newKey, [oldKey]);

let database: DatabaseHandle;
let h: HealthcheckHarness;

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  h = await startHealthcheck(database.db, { secrets: written });
});
afterAll(async () => {
  await h.stop();
  await database.close();
});
beforeEach(async () => {
  await h.reset();
});

function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message?: string }[] = [];
  const at = (level: string) => (fields: unknown, message?: string) =>
    void lines.push({ level, fields: fields as Record<string, unknown>, message });
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return { logger, lines };
}

const postgresCheck = async (name: string, password: string) => {
  const system = await h.createSystem();
  return h.as(admin).createHealthCheck({
    systemId: system.id,
    name,
    type: 'healthcheck.postgres',
    config: { host: '127.0.0.1', port: 5432, ssl: 'disable', password },
    intervalSeconds: 3_600,
    timeoutMs: 5_000,
  });
};

const storedConfigs = async () =>
  Object.fromEntries(
    (
      await database.db
        .select({ id: healthChecks.id, config: healthChecks.config })
        .from(healthChecks)
        .orderBy(asc(healthChecks.id))
    ).map((row) => [row.id, row.config]),
  );

const storedPassword = async (id: string) => (await storedConfigs())[id]!.password as string;

const setStoredPassword = async (id: string, password: string) => {
  const [row] = await database.db.select().from(healthChecks).where(eq(healthChecks.id, id));
  await database.db
    .update(healthChecks)
    .set({ config: { ...row!.config, password } })
    .where(eq(healthChecks.id, id));
};

/** Runs a stored postgres check as a server holding `sealer` would. */
const runWith = async (sealer: TestSealer, id: string) =>
  createPostgresCheckType(sealer).run(
    PostgresCheckConfigSchema.parse((await storedConfigs())[id]),
    {
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      targets: createTargetPolicy(loopbackAllowed),
      healthCheckId: id,
    },
  );

describe('health-check secret rotation', () => {
  describe('works', () => {
    it('reseals passwords under an old key under the current one, across batches; they still open', async () => {
      const passwords = ['pg-first-s3cret', 'pg-second-s3cret', 'pg-third-s3cret'];
      const checks = await Promise.all(
        passwords.map((password, index) => postgresCheck(`db ${index}`, password)),
      );
      const system = await h.createSystem();
      await h.as(admin).createHealthCheck({
        systemId: system.id,
        name: 'web',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: 80 },
        intervalSeconds: 3_600,
        timeoutMs: 5_000,
      });
      for (const check of checks) {
        expect(await storedPassword(check.id)).toMatch(`enc:test:${written.currentKeyId}:`);
      }

      const first = await rotateHealthCheckSecrets(
        database.db,
        rotating,
        recordingLogger().logger,
        2,
      );
      expect(first).toEqual({ rows: 4, reencrypted: 3, rowsChanged: 3, failed: 0 });
      for (const [index, check] of checks.entries()) {
        const stored = await storedPassword(check.id);
        expect(stored).toMatch(`enc:test:${rotating.currentKeyId}:`);
        expect(rotating.decrypt(stored, configSecretAad(check.id, 'password'))).toBe(
          passwords[index],
        );
        await expect(runWith(new TestSealer(newKey), check.id)).resolves.toMatchObject({
          status: 'pass',
        });
      }

      const before = await storedConfigs();
      const second = await rotateHealthCheckSecrets(
        database.db,
        rotating,
        recordingLogger().logger,
        2,
      );
      expect(second).toEqual({ rows: 4, reencrypted: 0, rowsChanged: 0, failed: 0 });
      expect(await storedConfigs()).toEqual(before);
    });

    it('seals a new check under its own id', async () => {
      const check = await postgresCheck('db', 'pg-own-row-s3cret');
      const stored = await storedPassword(check.id);
      expect(written.decrypt(stored, configSecretAad(check.id, 'password'))).toBe(
        'pg-own-row-s3cret',
      );
      expect(() => written.decrypt(stored, 'healthcheck.health_checks.config.password')).toThrow();
    });
  });

  describe('errors', () => {
    it('counts a value under an unknown key, logs its row (never the value) and leaves it', async () => {
      const lost = await postgresCheck('lost', 'pg-lost-s3cret');
      const kept = await postgresCheck('kept', 'pg-kept-s3cret');
      const stranger = new TestSealer(randomBytes(32));
      const unknown = stranger.encrypt('pg-lost-s3cret', configSecretAad(lost.id, 'password'));
      await setStoredPassword(lost.id, unknown);

      const log = recordingLogger();
      const result = await rotateHealthCheckSecrets(database.db, rotating, log.logger);
      expect(result).toEqual({ rows: 2, reencrypted: 1, rowsChanged: 1, failed: 1 });
      expect(await storedPassword(lost.id)).toBe(unknown);
      expect(await storedPassword(kept.id)).toMatch(`enc:test:${rotating.currentKeyId}:`);
      const warnings = log.lines.filter((line) => line.level === 'warn');
      expect(warnings).toEqual([
        {
          level: 'warn',
          message: 'secret rotation: row skipped',
          fields: {
            table: 'healthcheck.health_checks',
            healthCheckId: lost.id,
            problem: `config.password: sealed under unknown key ${stranger.currentKeyId}`,
          },
        },
      ]);
      const logged = JSON.stringify(log.lines);
      expect(logged).not.toContain('pg-lost-s3cret');
      expect(logged).not.toContain(unknown);
    });
  });

  describe('security', () => {
    it('a sealed password copied into another check does not open there', async () => {
      const source = await postgresCheck('source', 'pg-source-s3cret');
      const target = await postgresCheck('target', 'pg-target-s3cret');
      const copied = await storedPassword(source.id);
      await setStoredPassword(target.id, copied);

      const run = await h.as(admin).runHealthCheck({ id: target.id });
      expect(run).toMatchObject({
        status: 'fail',
        message: 'The stored password cannot be decrypted (ENCRYPTION_KEY changed?)',
      });
      expect(run.message).not.toContain('pg-source-s3cret');
      expect(await h.as(admin).runHealthCheck({ id: source.id })).toMatchObject({ status: 'pass' });

      // Under the current key or an old one, rotation finds it and leaves it.
      for (const sealer of [written, rotating]) {
        const log = recordingLogger();
        const result = await rotateHealthCheckSecrets(database.db, sealer, log.logger);
        expect(result.failed).toBe(1);
        expect(await storedPassword(target.id)).toBe(copied);
        expect(log.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({
          healthCheckId: target.id,
          problem: expect.stringMatching(/fails authentication$/),
        });
      }
    });
  });
});
