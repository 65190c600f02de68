import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTargetPolicy } from '@checkline/net';
import { fixedResolver, recordClientSockets } from '@checkline/net/testing';
import { loopbackAllowed } from '../testing/harness.ts';
import { closedPort } from '../testing/targets.ts';
import type { PostgresCheckConfig } from './postgres.ts';
import { PostgresCheckConfigSchema, postgresCheckType } from './postgres.ts';

/** The machine's PostgreSQL (trust authentication for `postgres` on 127.0.0.1). */
const machine = { host: '127.0.0.1', port: 5432, ssl: 'disable' as const };
const loopback = createTargetPolicy(loopbackAllowed);

const run = (config: Partial<PostgresCheckConfig>, targets = loopback, timeoutMs = 5_000) =>
  postgresCheckType.run(PostgresCheckConfigSchema.parse({ ...machine, ...config }), {
    signal: new AbortController().signal,
    timeoutMs,
    targets,
  });

describe('postgres check type', () => {
  describe('works', () => {
    it('passes when the server answers SELECT 1', async () => {
      await expect(run({})).resolves.toMatchObject({
        status: 'pass',
        message: 'SELECT 1 answered by 127.0.0.1:5432/postgres',
      });
      await expect(run({ ssl: 'prefer', password: 'unused-by-trust' })).resolves.toMatchObject({
        status: 'pass',
      });
    });

    it('connects through a host name to the address the policy judged', async () => {
      const resolve = fixedResolver({ 'db.invalid': ['127.0.0.1'] });
      const policy = createTargetPolicy({ allow: ['127.0.0.1'], resolve });
      await expect(run({ host: 'db.invalid' }, policy)).resolves.toMatchObject({
        status: 'pass',
        message: 'SELECT 1 answered by db.invalid:5432/postgres',
      });
      expect(resolve.calls).toEqual(['db.invalid']);
    });

    it("fails with the server's reason, never showing the password", async () => {
      const outcome = await run({ database: 'no_such_database', password: 'pg-s3cret-value' });
      expect(outcome).toMatchObject({
        status: 'fail',
        message: 'database "no_such_database" does not exist',
      });
      expect(JSON.stringify(outcome)).not.toContain('pg-s3cret-value');
    });

    it('fails with ECONNREFUSED when nothing listens', async () => {
      const outcome = await run({ port: await closedPort() });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toMatch(/^ECONNREFUSED/);
    });

    it('stops at once when its signal is aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(
        postgresCheckType.run(PostgresCheckConfigSchema.parse(machine), {
          signal: controller.signal,
          timeoutMs: 5_000,
          targets: loopback,
        }),
      ).resolves.toMatchObject({ status: 'fail', message: 'Cancelled' });
    });
  });

  describe('keeps to the target policy', () => {
    it('refuses loopback and metadata hosts unless allowed, never connecting', async () => {
      const strict = createTargetPolicy({
        resolve: fixedResolver({ 'imds.invalid': ['169.254.169.254'] }),
      });
      const sockets = recordClientSockets();
      try {
        for (const host of ['127.0.0.1', 'localhost', 'imds.invalid']) {
          await expect(run({ host }, strict)).resolves.toMatchObject({
            status: 'fail',
            message: expect.stringMatching(/^Target refused/),
          });
        }
        expect(sockets.created()).toBe(0);
      } finally {
        sockets.stop();
      }
    });
  });

  describe('rejects bad input', () => {
    it('refuses hosts that are no host names, bad ports and unknown ssl modes', () => {
      for (const config of [
        { host: 'two words' },
        { host: 'db', port: 0 },
        { host: 'db', ssl: 'sometimes' },
        { host: 'db', password: '' },
      ]) {
        expect(PostgresCheckConfigSchema.safeParse(config).success, JSON.stringify(config)).toBe(
          false,
        );
      }
    });

    it('marks the password as a secret in the JSON Schema forms are built from', () => {
      const schema = z.toJSONSchema(PostgresCheckConfigSchema, { io: 'input' }) as {
        properties: Record<string, Record<string, unknown>>;
      };
      expect(schema.properties.password).toMatchObject({ 'x-secret': true, writeOnly: true });
      expect(schema.properties.host).not.toHaveProperty('x-secret');
    });

    it('fills the defaults', () => {
      expect(PostgresCheckConfigSchema.parse({ host: 'db.internal' })).toEqual({
        host: 'db.internal',
        port: 5432,
        database: 'postgres',
        username: 'postgres',
        ssl: 'prefer',
      });
    });
  });
});
