import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  loopbackAllowed,
  manager,
  reader,
  startHealthcheck,
} from './testing/harness.ts';
import { fixedResolver } from '@checkline/net/testing';
import type { HttpTarget } from './testing/targets.ts';
import { startHttpTarget, startTcpTarget } from './testing/targets.ts';

/**
 * The target policy as callers meet it: checks are refused on save and fail before connecting at
 * run time. Names resolve through a resolver the test controls, so no refused address is ever
 * dialled: the only servers are on loopback, and they count what reaches them.
 */
let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
let tcp: Awaited<ReturnType<typeof startTcpTarget>>;

const resolve = fixedResolver({
  'metadata.invalid': ['169.254.169.254'],
  'mixed.invalid': ['10.1.2.3', 'fe80::1'],
  'mapped.invalid': ['::ffff:169.254.169.254'],
  'office.invalid': ['10.1.2.3', '192.168.7.7'],
  'loop.invalid': ['127.0.0.1'],
});

beforeAll(async () => {
  [database, target, tcp] = await Promise.all([
    createHealthcheckTestDatabase(),
    startHttpTarget(),
    startTcpTarget(),
  ]);
  h = await startHealthcheck(database.db, { targets: { ...loopbackAllowed, resolve } });
});
afterAll(async () => {
  await h.stop();
  await Promise.all([target.close(), tcp.close()]);
  await database.close();
});
beforeEach(async () => {
  await h.reset();
});

const httpConfig = (url: string) => ({ type: 'healthcheck.http', config: { url } });
const tcpConfig = (host: string) => ({ type: 'healthcheck.tcp', config: { host, port: 80 } });

/** Every shape of a refused target, with the config field the refusal must name. */
const refused = [
  { what: 'the metadata address', ...httpConfig('http://169.254.169.254/latest/'), path: 'url' },
  { what: 'a link-local address', ...tcpConfig('169.254.1.1'), path: 'host' },
  { what: 'an IPv6 link-local address', ...httpConfig('http://[fe80::1]/'), path: 'url' },
  {
    what: 'an IPv4-mapped metadata address',
    ...httpConfig('http://[::ffff:169.254.169.254]/'),
    path: 'url',
  },
  { what: 'a mapped address in TCP', ...tcpConfig('::ffff:a9fe:a9fe'), path: 'host' },
  { what: 'a metadata host name', ...httpConfig('http://metadata.google.internal/'), path: 'url' },
  { what: 'a metadata host name in TCP', ...tcpConfig('metadata.google.internal'), path: 'host' },
  { what: 'a name resolving to metadata', ...httpConfig('http://metadata.invalid/'), path: 'url' },
  { what: 'a name with one bad address', ...tcpConfig('mixed.invalid'), path: 'host' },
  { what: 'a name resolving to a mapped form', ...tcpConfig('mapped.invalid'), path: 'host' },
  { what: 'the unspecified address', ...httpConfig('http://0.0.0.0:8080/'), path: 'url' },
];

describe('health check targets on save', () => {
  describe('refuses link-local, metadata and unspecified targets on create and update', () => {
    it.each(refused)('$what', async ({ type, config, path }) => {
      const system = await h.createSystem();
      await expect(
        h.as(manager).createHealthCheck({ systemId: system.id, name: 'bad', type, config }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: `config.${path}`, message: expect.stringMatching(/refused/) }] },
      });
      const check = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'good',
        ...tcpConfig('office.invalid'),
      });
      await expect(
        h.as(manager).updateHealthCheck({ id: check.id, type, config }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: `config.${path}` }] },
      });
    });
  });

  it('keeps private ranges and names resolving to them allowed', async () => {
    const system = await h.createSystem();
    for (const [name, setup] of [
      ['a', httpConfig('http://10.0.0.8:8080/health')],
      ['b', tcpConfig('192.168.1.20')],
      ['c', httpConfig('https://office.invalid/')],
      ['d', tcpConfig('fd12:3456::1')],
    ] as const) {
      await expect(
        h.as(manager).createHealthCheck({ systemId: system.id, name, ...setup }),
      ).resolves.toMatchObject({ name });
    }
  });

  it('accepts a name that does not resolve now: the policy is applied again on each run', async () => {
    const system = await h.createSystem();
    await expect(
      h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'later',
        ...httpConfig('http://not-yet.invalid/'),
      }),
    ).resolves.toMatchObject({ name: 'later' });
  });
});

describe('health check targets on each run', () => {
  it('fails a stored check whose target the policy now refuses, without connecting', async () => {
    target.respond('/narrowed', { status: 200 });
    const system = await h.createSystem();
    const check = await h.as(manager).createHealthCheck({
      systemId: system.id,
      name: 'narrowed',
      ...httpConfig(target.url('/narrowed')),
    });
    const strict = await startHealthcheck(database.db, { targets: { resolve } });
    try {
      await expect(strict.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/^Target refused: 127\.0\.0\.1 is a loopback address/),
      });
      expect(await strict.healthcheck.scheduler().tick()).toBe(1);
      await strict.healthcheck.scheduler().idle();
      const history = await strict.as(reader).getHistory({ healthCheckId: check.id });
      expect(history.results.map((result) => result.status)).toEqual(['fail', 'fail']);
      expect(target.hits('/narrowed')).toBe(0);
    } finally {
      await strict.stop();
    }
  });

  it('refuses loopback by default, on save and for a tcp run, and never connects', async () => {
    const strict = await startHealthcheck(database.db, { targets: { resolve } });
    try {
      const system = await strict.createSystem();
      for (const setup of [
        httpConfig(target.url('/')),
        httpConfig('http://localhost/'),
        httpConfig('http://[::1]/'),
        tcpConfig('loop.invalid'),
        tcpConfig('127.1.2.3'),
      ]) {
        await expect(
          strict.as(manager).createHealthCheck({ systemId: system.id, name: 'loop', ...setup }),
        ).rejects.toMatchObject({
          code: 'BAD_REQUEST',
          data: { issues: [{ message: expect.stringMatching(/loopback/) }] },
        });
      }
      const check = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'tcp',
        type: 'healthcheck.tcp',
        config: { host: '127.0.0.1', port: tcp.port },
      });
      const before = tcp.accepted();
      await expect(strict.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'fail',
        message: expect.stringMatching(/^Target refused/),
      });
      expect(tcp.accepted()).toBe(before);
    } finally {
      await strict.stop();
    }
  });
});

describe('health check configs', () => {
  it('refuses unknown config keys, naming each one', async () => {
    const system = await h.createSystem();
    await expect(
      h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'typo',
        type: 'healthcheck.http',
        config: { url: target.url('/'), folowRedirects: true, extra: 1 },
      }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      data: {
        issues: [
          { path: 'config.folowRedirects', message: 'Unknown key "folowRedirects"' },
          { path: 'config.extra', message: 'Unknown key "extra"' },
        ],
      },
    });
  });
});

describe('runHealthCheck rate limit', () => {
  it('answers TOO_MANY_REQUESTS with retryAfter once a caller spent its budget, per caller', async () => {
    const limited = await startHealthcheck(database.db, {
      targets: { allow: ['127.0.0.0/8'] },
      runRateLimit: { points: 2, durationSeconds: 60 },
    });
    try {
      const system = await limited.createSystem();
      const check = await limited.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'often',
        ...httpConfig(target.url('/ok')),
      });
      await limited.as(manager).runHealthCheck({ id: check.id });
      await limited.as(manager).runHealthCheck({ id: check.id });
      await expect(limited.as(manager).runHealthCheck({ id: check.id })).rejects.toMatchObject({
        code: 'TOO_MANY_REQUESTS',
        status: 429,
        data: { retryAfter: expect.any(Number) },
      });
      const other = { ...manager, id: 'another-manager' };
      await expect(limited.as(other).runHealthCheck({ id: check.id })).resolves.toMatchObject({
        status: 'pass',
      });
    } finally {
      await limited.stop();
    }
  });
});
