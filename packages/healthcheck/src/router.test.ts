import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthChecks, results } from './db/schema.ts';
import type { HealthCheckResult } from './schemas.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { admin, anonymous, manager, nobody, reader, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';
import { closedPort, startTcpTarget } from './testing/targets.ts';

let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
let tcp: Awaited<ReturnType<typeof startTcpTarget>>;
const clock = testClock();
const unknownId = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';

useHealthcheckSuite((suite) => ({ database, h, target } = suite), { now: clock.now });
beforeAll(async () => {
  tcp = await startTcpTarget();
});
afterAll(async () => {
  await tcp.close();
});

async function httpCheck(path = '/ok', overrides: Record<string, unknown> = {}) {
  const system = await h.createSystem();
  const check = await h.as(manager).createHealthCheck({
    systemId: system.id,
    name: `GET ${path}`,
    type: 'healthcheck.http',
    config: { url: target.url(path) },
    ...overrides,
  });
  return { system, check };
}

describe('getHealthCheckTypes', () => {
  it('works: lists the built-in types with the JSON Schema of their config', async () => {
    const { types } = await h.as(reader).getHealthCheckTypes({});
    expect(types.map((type) => type.id)).toEqual([
      'healthcheck.http',
      'healthcheck.tcp',
      'healthcheck.dns',
      'healthcheck.tls',
      'healthcheck.postgres',
      'healthcheck.heartbeat',
    ]);
    const http = types[0]!;
    expect(http.displayName).toBe('HTTP');
    expect(http.configSchema).toMatchObject({
      type: 'object',
      properties: { url: { type: 'string' }, followRedirects: { default: false } },
      required: ['url'],
    });
  });

  it('refuses the wrong caller: a caller without the read rule', async () => {
    await expect(h.as(nobody).getHealthCheckTypes({})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: healthcheck.healthcheck.read',
    });
  });
});

describe('createHealthCheck', () => {
  describe('keeps header values secret', () => {
    it('sends them to the target but never shows them in an answer', async () => {
      const seen: (string | undefined)[] = [];
      const secretTarget = createServer((request, response) => {
        seen.push(request.headers.authorization);
        response.writeHead(200).end('ok');
      });
      await new Promise<void>((resolve) => secretTarget.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = secretTarget.address() as AddressInfo;
        const system = await h.createSystem();
        const check = await h.as(manager).createHealthCheck({
          systemId: system.id,
          name: 'private api',
          type: 'healthcheck.http',
          config: { url: `http://127.0.0.1:${port}/`, headers: { authorization: 'Bearer s3cret' } },
        });
        expect(check.config.headers).toEqual({ authorization: '[redacted]' });
        const listed = await h.as(reader).getHealthChecks({ systemId: system.id });
        expect(JSON.stringify(listed)).not.toContain('s3cret');
        await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
          status: 'pass',
        });
        expect(seen).toEqual(['Bearer s3cret']);
      } finally {
        await new Promise((resolve) => secretTarget.close(resolve));
      }
    });
  });

  describe('works', () => {
    it('creates an http check with defaults, due at once', async () => {
      const { system, check } = await httpCheck('/ok');
      expect(check).toMatchObject({
        systemId: system.id,
        name: 'GET /ok',
        type: 'healthcheck.http',
        config: { url: target.url('/ok'), method: 'GET', headers: {}, followRedirects: false },
        intervalSeconds: 60,
        timeoutMs: 10_000,
        nextRunAt: clock.now().toISOString(),
      });
    });

    it('creates a tcp check with its interval and timeout', async () => {
      const system = await h.createSystem();
      const check = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'port',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: tcp.port },
        intervalSeconds: 86_400,
        timeoutMs: 500,
      });
      expect(check).toMatchObject({ intervalSeconds: 86_400, timeoutMs: 500 });
    });
  });

  describe('rejects bad input', () => {
    it('refuses intervals outside 10 s to 24 h and timeouts not shorter than the interval', async () => {
      const system = await h.createSystem();
      const base = {
        systemId: system.id,
        name: 'x',
        type: 'healthcheck.http',
        config: { url: target.url('/') },
      };
      for (const bad of [
        { intervalSeconds: 9 },
        { intervalSeconds: 86_401 },
        { intervalSeconds: 10.5 },
        { timeoutMs: 99 },
        { timeoutMs: 120_001 },
      ]) {
        await expect(h.as(manager).createHealthCheck({ ...base, ...bad })).rejects.toMatchObject({
          code: 'BAD_REQUEST',
        });
      }
      await expect(
        h.as(manager).createHealthCheck({ ...base, intervalSeconds: 10, timeoutMs: 10_000 }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: 'The timeout must be shorter than the interval',
        data: { issues: [{ path: 'timeoutMs' }] },
      });
    });

    it('refuses a config its type rejects, listing each problem under config', async () => {
      const system = await h.createSystem();
      const create = (config: Record<string, unknown>, type = 'healthcheck.http') =>
        h.as(manager).createHealthCheck({ systemId: system.id, name: 'x', type, config });
      await expect(create({ url: 'ftp://example.com/' })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: 'Invalid config for healthcheck.http',
        data: { issues: [{ path: 'config.url', message: 'Must be an http:// or https:// URL' }] },
      });
      await expect(create({})).rejects.toMatchObject({
        data: { issues: [{ path: 'config.url' }] },
      });
      await expect(create({ host: '127.0.0.1', port: 0 }, 'healthcheck.tcp')).rejects.toMatchObject(
        {
          data: { issues: [{ path: 'config.port' }] },
        },
      );
    });

    it('refuses an unknown type', async () => {
      const system = await h.createSystem();
      await expect(
        h
          .as(manager)
          .createHealthCheck({ systemId: system.id, name: 'x', type: 'http', config: {} }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: 'Unknown health check type "http"',
        data: {
          issues: [
            {
              path: 'type',
              message:
                'Must be one of: healthcheck.http, healthcheck.tcp, healthcheck.dns, healthcheck.tls, healthcheck.postgres, healthcheck.heartbeat',
            },
          ],
        },
      });
    });

    it('answers NOT_FOUND for a system the catalog does not know, BAD_REQUEST for a non-uuid', async () => {
      const input = { name: 'x', type: 'healthcheck.http', config: { url: target.url('/') } };
      await expect(
        h.as(manager).createHealthCheck({ ...input, systemId: unknownId }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknownId} not found` });
      await expect(
        h.as(manager).createHealthCheck({ ...input, systemId: 'not-a-uuid' }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      expect(await database.db.select().from(healthChecks)).toEqual([]);
    });

    it('answers CONFLICT for a name the system already uses', async () => {
      const { system } = await httpCheck('/ok');
      await expect(
        h.as(manager).createHealthCheck({
          systemId: system.id,
          name: 'GET /ok',
          type: 'healthcheck.tcp',
          config: { host: '127.0.0.1', port: tcp.port },
        }),
      ).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses readers and anonymous callers', async () => {
      const system = await h.createSystem();
      const input = {
        systemId: system.id,
        name: 'x',
        type: 'healthcheck.http',
        config: { url: target.url('/') },
      };
      await expect(h.as(reader).createHealthCheck(input)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: healthcheck.healthcheck.manage',
      });
      await expect(h.as(anonymous).createHealthCheck(input)).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
    });
  });
});

describe('getHealthChecks', () => {
  it('works: lists every check, or the checks of one system', async () => {
    const first = await httpCheck('/a');
    const second = await httpCheck('/b');
    const all = await h.as(reader).getHealthChecks({});
    expect(all.healthChecks.map((check) => check.id).sort()).toEqual(
      [first.check.id, second.check.id].sort(),
    );
    const ofFirst = await h.as(reader).getHealthChecks({ systemId: first.system.id });
    expect(ofFirst.healthChecks).toEqual([first.check]);
  });

  it('rejects bad input: a systemId that is no uuid', async () => {
    await expect(h.as(reader).getHealthChecks({ systemId: 'x' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('refuses the wrong caller: Missing access: healthcheck.healthcheck.read', async () => {
    await expect(h.as(nobody).getHealthChecks({})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: healthcheck.healthcheck.read',
    });
    await expect(h.as(anonymous).getHealthChecks({})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});

describe('updateHealthCheck', () => {
  describe('works', () => {
    it('renames without touching the schedule', async () => {
      const { check } = await httpCheck('/ok');
      clock.advance(5_000);
      const renamed = await h.as(manager).updateHealthCheck({ id: check.id, name: 'homepage' });
      expect(renamed).toMatchObject({ name: 'homepage', nextRunAt: check.nextRunAt });
      expect(renamed.updatedAt).toBe(clock.now().toISOString());
    });

    it('runs soon again after a change of behaviour, and takes a new type with its config', async () => {
      const { check } = await httpCheck('/ok');
      clock.advance(5_000);
      const changed = await h.as(manager).updateHealthCheck({
        id: check.id,
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: tcp.port },
        intervalSeconds: 30,
      });
      expect(changed).toMatchObject({
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: tcp.port },
        intervalSeconds: 30,
        nextRunAt: clock.now().toISOString(),
      });
    });
  });

  describe('rejects bad input', () => {
    it('needs a config with a new type and validates it against that type', async () => {
      const { check } = await httpCheck('/ok');
      await expect(
        h.as(manager).updateHealthCheck({ id: check.id, type: 'healthcheck.tcp' }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'config' }] } });
      await expect(
        h.as(manager).updateHealthCheck({ id: check.id, config: { url: 'mailto:x@example.com' } }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'config.url' }] } });
    });

    it('refuses a bad interval and a timeout that the stored interval does not fit', async () => {
      const { check } = await httpCheck('/ok', { intervalSeconds: 20, timeoutMs: 5_000 });
      await expect(
        h.as(manager).updateHealthCheck({ id: check.id, intervalSeconds: 0 }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(
        h.as(manager).updateHealthCheck({ id: check.id, timeoutMs: 20_000 }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'timeoutMs' }] } });
    });

    it('answers NOT_FOUND for an unknown check and CONFLICT for a taken name', async () => {
      await expect(
        h.as(manager).updateHealthCheck({ id: unknownId, name: 'x' }),
      ).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: `Health check ${unknownId} not found`,
      });
      const { system, check } = await httpCheck('/ok');
      await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'other',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: tcp.port },
      });
      await expect(
        h.as(manager).updateHealthCheck({ id: check.id, name: 'other' }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
    });
  });

  it('refuses the wrong caller: readers', async () => {
    const { check } = await httpCheck('/ok');
    await expect(h.as(reader).updateHealthCheck({ id: check.id, name: 'x' })).rejects.toMatchObject(
      {
        message: 'Missing access: healthcheck.healthcheck.manage',
      },
    );
  });
});

describe('deleteHealthCheck', () => {
  it('works: deletes the check with its results', async () => {
    const { check } = await httpCheck('/ok');
    await h.as(manager).runHealthCheck({ id: check.id });
    await expect(h.as(manager).deleteHealthCheck({ id: check.id })).resolves.toEqual({
      id: check.id,
      deleted: true,
    });
    expect(await database.db.select().from(results)).toEqual([]);
    await expect(h.as(manager).deleteHealthCheck({ id: check.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('rejects bad input: an id that is no uuid', async () => {
    await expect(h.as(manager).deleteHealthCheck({ id: '42' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('refuses the wrong caller: readers', async () => {
    const { check } = await httpCheck('/ok');
    await expect(h.as(reader).deleteHealthCheck({ id: check.id })).rejects.toMatchObject({
      message: 'Missing access: healthcheck.healthcheck.manage',
    });
  });
});

describe('runHealthCheck', () => {
  describe('works', () => {
    it('runs an http check now and stores a pass, a fail and a timeout', async () => {
      target.respond('/flaky', { status: 200 });
      const { check } = await httpCheck('/flaky', { timeoutMs: 300 });
      const passed = await h.as(manager).runHealthCheck({ id: check.id });
      expect(passed).toMatchObject({
        healthCheckId: check.id,
        status: 'pass',
        message: 'Status 200',
        dueAt: null,
        checkedAt: clock.now().toISOString(),
      });
      target.respond('/flaky', { status: 500 });
      await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'fail',
        message: 'Expected status 2xx, got 500',
      });
      target.respond('/flaky', { hang: true });
      await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'fail',
        message: 'Timed out after 300 ms',
      });
      const stored = await database.db.select().from(results);
      expect(stored.map((row) => row.status).sort()).toEqual(['fail', 'fail', 'pass']);
    });

    it('runs a tcp check against an open and a closed port', async () => {
      const system = await h.createSystem();
      const open = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'open',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: tcp.port },
      });
      const closed = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'closed',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: await closedPort() },
      });
      await expect(h.as(manager).runHealthCheck({ id: open.id })).resolves.toMatchObject({
        status: 'pass',
      });
      await expect(h.as(manager).runHealthCheck({ id: closed.id })).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/^ECONNREFUSED/),
      });
    });
  });

  it('rejects bad input: unknown and malformed ids', async () => {
    await expect(h.as(manager).runHealthCheck({ id: unknownId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(h.as(manager).runHealthCheck({ id: 'x' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('refuses the wrong caller: readers', async () => {
    const { check } = await httpCheck('/ok');
    await expect(h.as(reader).runHealthCheck({ id: check.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: healthcheck.healthcheck.manage',
    });
  });
});

describe('getHistory', () => {
  async function checkWithResults(count: number, stepMs = 1_000) {
    const { check } = await httpCheck('/ok');
    for (let i = 0; i < count; i += 1) {
      clock.advance(stepMs);
      await h.as(manager).runHealthCheck({ id: check.id });
    }
    return check;
  }

  describe('works', () => {
    /** Every page of a check's history from `before` on, `limit` results at a time. */
    async function readAll(healthCheckId: string, limit: number, before?: string) {
      const pages: HealthCheckResult[][] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 10; guard += 1) {
        const page = await h.as(reader).getHistory({ healthCheckId, limit, before, cursor });
        pages.push(page.results);
        if (page.nextCursor === null) return pages;
        cursor = page.nextCursor;
      }
      throw new Error('the history did not end within 10 pages');
    }

    it('pages backwards by time, newest first, until nextCursor is null', async () => {
      const check = await checkWithResults(7);
      const pages = await readAll(check.id, 3);
      const seen = pages.flat().map((result) => result.checkedAt);
      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(seen).toEqual([...seen].sort().reverse());
      expect(new Set(seen).size).toBe(7);
    });

    it('splits results of the same instant across pages exactly, losing none', async () => {
      const { check } = await httpCheck('/ok');
      for (const step of [1_000, 0, 1_000, 0, 0, 1_000]) {
        clock.advance(step);
        await h.as(manager).runHealthCheck({ id: check.id });
      }
      const pages = await readAll(check.id, 2);
      const ids = pages.flat().map((result) => result.id);
      // Instants hold 1, 3 and 2 results; the cursor carries the id too, so pages stay full.
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2]);
      expect(new Set(ids).size).toBe(6);
    });

    it('starts from `before` when given: only older results, still paged by cursor', async () => {
      const check = await checkWithResults(5);
      const [newest, ...older] = (await readAll(check.id, 100)).flat();
      const pages = await readAll(check.id, 2, newest!.checkedAt);
      expect(pages.flat().map((result) => result.id)).toEqual(older.map((result) => result.id));
    });

    it('defaults to 100 results', async () => {
      const check = await checkWithResults(3);
      const page = await h.as(reader).getHistory({ healthCheckId: check.id });
      expect(page).toMatchObject({ nextCursor: null });
      expect(page.results).toHaveLength(3);
    });
  });

  it('rejects bad input: limits outside 1..1000, a before that is no time, a bad cursor, an unknown check', async () => {
    const { check } = await httpCheck('/ok');
    for (const bad of [{ limit: 0 }, { limit: 1001 }, { before: 'yesterday' }, { cursor: 'x!' }]) {
      await expect(
        h.as(reader).getHistory({ healthCheckId: check.id, ...bad }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    await expect(h.as(reader).getHistory({ healthCheckId: unknownId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('refuses the wrong caller: Missing access: healthcheck.healthcheck.read', async () => {
    const { check } = await httpCheck('/ok');
    await expect(h.as(nobody).getHistory({ healthCheckId: check.id })).rejects.toMatchObject({
      message: 'Missing access: healthcheck.healthcheck.read',
    });
  });
});

describe('when a system is deleted from the catalog', () => {
  it('deletes its checks and their results', async () => {
    const { system, check } = await httpCheck('/ok');
    const { check: other } = await httpCheck('/other');
    await h.as(manager).runHealthCheck({ id: check.id });
    await h.catalog().deleteSystem({ id: system.id });
    await h.runtime.events.settled();
    const left = await h.as(admin).getHealthChecks({});
    expect(left.healthChecks.map((c) => c.id)).toEqual([other.id]);
    expect(await database.db.select().from(results)).toEqual([]);
  });
});
