import { definePlugin } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HealthCheckTypeExtension } from './check-type.ts';
import { defineHealthCheckType, healthCheckTypeExtensionPoint } from './check-type.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import {
  createHealthcheckTestDatabase,
  manager,
  reader,
  startHealthcheck,
} from './testing/harness.ts';

const pingType = defineHealthCheckType({
  id: 'ping',
  displayName: 'Ping',
  config: z.object({ target: z.string().min(1) }),
  run: async ({ target }) => ({ status: 'pass', latencyMs: 0, message: `pong from ${target}` }),
});

/** A plugin of another package that adds check types in its own register phase. */
function probePlugin(registerTypes: (types: HealthCheckTypeExtension) => void) {
  let kept: HealthCheckTypeExtension | undefined;
  const plugin = definePlugin({
    id: 'probe',
    description: 'A check type used only in tests.',
    contract: {},
    router: {},
    accessRules: [],
    register(api) {
      kept = api.extensionPoints.get(healthCheckTypeExtensionPoint, api.pluginId);
      registerTypes(kept);
    },
  });
  return Object.assign(plugin, { kept: () => kept! });
}

let database: DatabaseHandle;
let h: HealthcheckHarness;
let probe: ReturnType<typeof probePlugin>;

beforeAll(async () => {
  database = await createHealthcheckTestDatabase();
  probe = probePlugin((types) => {
    types.register(pingType);
    // Another plugin's `http` does not clash with the built-in one: ids are qualified.
    types.register({ ...pingType, id: 'http', displayName: 'Probe HTTP' });
  });
  h = await startHealthcheck(database.db, { extraPlugins: [probe] });
});
afterAll(async () => {
  await h.stop();
  await database.close();
});

describe('health check type extension point', () => {
  it('qualifies ids by the registering plugin, built-in types included', async () => {
    const { types } = await h.as(reader).getHealthCheckTypes({});
    expect(types.map((type) => type.id)).toEqual([
      'healthcheck.http',
      'healthcheck.tcp',
      'healthcheck.dns',
      'healthcheck.tls',
      'healthcheck.postgres',
      'healthcheck.heartbeat',
      'probe.ping',
      'probe.http',
    ]);
  });

  it('validates and runs checks of a registered type, by hand and on schedule', async () => {
    const system = await h.createSystem();
    await expect(
      h
        .as(manager)
        .createHealthCheck({ systemId: system.id, name: 'p', type: 'probe.ping', config: {} }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'config.target' }] } });
    const check = await h.as(manager).createHealthCheck({
      systemId: system.id,
      name: 'p',
      type: 'probe.ping',
      config: { target: 'db' },
    });
    await expect(h.as(manager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
      status: 'pass',
      message: 'pong from db',
    });
    expect(await h.healthcheck.scheduler().tick()).toBe(1);
    await h.healthcheck.scheduler().idle();
    const history = await h.as(reader).getHistory({ healthCheckId: check.id });
    expect(history.results).toHaveLength(2);
  });

  it('refuses an unknown config key of every registered type, on create and update', async () => {
    const validConfigs: Record<string, Record<string, unknown>> = {
      'healthcheck.http': { url: 'http://10.0.0.1/' },
      'healthcheck.tcp': { host: '10.0.0.1', port: 5432 },
      'healthcheck.dns': { name: 'example.com', resolver: { address: '10.0.0.53' } },
      'healthcheck.tls': { host: '10.0.0.1' },
      'healthcheck.postgres': { host: '10.0.0.1', password: 'pw' },
      'healthcheck.heartbeat': { graceSeconds: 30 },
      'probe.ping': { target: 'db' },
      'probe.http': { target: 'web' },
    };
    const { types } = await h.as(reader).getHealthCheckTypes({});
    expect(types.map((type) => type.id).sort()).toEqual(Object.keys(validConfigs).sort());
    const system = await h.createSystem();
    for (const { id: type, configSchema } of types) {
      expect(configSchema, type).toMatchObject({ additionalProperties: false });
      const config = { ...validConfigs[type], unknownKey: true };
      const expected = {
        code: 'BAD_REQUEST',
        data: { issues: [{ path: 'config.unknownKey', message: 'Unknown key "unknownKey"' }] },
      };
      await expect(
        h.as(manager).createHealthCheck({ systemId: system.id, name: type, type, config }),
      ).rejects.toMatchObject(expected);
      const check = await h.as(manager).createHealthCheck({
        systemId: system.id,
        name: type,
        type,
        config: validConfigs[type]!,
      });
      await expect(h.as(manager).updateHealthCheck({ id: check.id, config })).rejects.toMatchObject(
        expected,
      );
    }
  });

  it('refuses a type whose config is not an object schema', async () => {
    const loose = probePlugin((types) =>
      types.register({ ...pingType, id: 'loose', config: z.string() as never }),
    );
    await expect(startHealthcheck(database.db, { extraPlugins: [loose] })).rejects.toThrow(
      'Health check type loose: config must be a z.object() schema',
    );
  });

  it('refuses registrations once start-up is over', () => {
    expect(() => probe.kept().register({ ...pingType, id: 'late' })).toThrow(
      'Health check types: probe.late registered after start-up',
    );
    expect(() => h.extensionPoints.get(healthCheckTypeExtensionPoint, 'probe')).toThrow(
      /in the ready phase/,
    );
  });

  it('refuses a duplicate id and an id that is not a lowercase name', async () => {
    const twice = probePlugin((types) => {
      types.register(pingType);
      types.register(pingType);
    });
    await expect(startHealthcheck(database.db, { extraPlugins: [twice] })).rejects.toThrow(
      'Health check types: probe.ping is already registered',
    );
    const badId = probePlugin((types) => types.register({ ...pingType, id: 'Ping Pong' }));
    await expect(startHealthcheck(database.db, { extraPlugins: [badId] })).rejects.toThrow(
      /invalid id "Ping Pong"/,
    );
  });
});
