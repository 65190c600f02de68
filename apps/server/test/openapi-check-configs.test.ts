import { definePlugin } from '@checkline/core';
import {
  defineHealthCheckType,
  healthCheckTypeExtensionPoint,
} from '@checkline/healthcheck/check-kit';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient } from './generated/client/client/index.ts';
import {
  healthcheckCreateHealthCheck,
  type HealthcheckCreateHealthCheckData,
} from './generated/client/index.ts';
import { createAdminKey } from './support/admin-key.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/** Issue 24.3: check configs typed by `type` in the document, plugin check types included. */
const queueDepthType = defineHealthCheckType({
  id: 'queue-depth',
  displayName: 'Queue depth',
  description: 'Fails when a queue holds more than `max` messages.',
  config: z.object({ queue: z.string().min(1), max: z.number().int().min(1) }),
  run: async () => ({ status: 'pass', latencyMs: 0, message: 'ok' }),
});

const queuePlugin = definePlugin({
  id: 'queues',
  description: 'Test plugin adding a check type.',
  dependsOn: ['healthcheck'],
  contract: {},
  router: {},
  accessRules: [],
  register(api) {
    api.extensionPoints.get(healthCheckTypeExtensionPoint, api.pluginId).register(queueDepthType);
  },
});

let server: TestServer;
let document: Record<string, any>;
let typeIds: string[];
let adminKey: string;

beforeAll(async () => {
  server = await createTestServer({ extraPlugins: [queuePlugin] });
  adminKey = await createAdminKey(server);
  document = (await (
    await server.request('/api/openapi.json', {
      headers: { authorization: `Bearer ${adminKey}` },
    })
  ).json()) as Record<string, any>;
  const types = await server.keyed('healthcheck', { getHealthCheckTypes: {} }, adminKey);
  const answer = (await types.json()) as { getHealthCheckTypes: { types: { id: string }[] } };
  typeIds = answer.getHealthCheckTypes.types.map((type) => type.id);
});
afterAll(() => server.close());

const restBody = (name: string) => {
  const item = document.paths[`/rest/healthcheck/${name}`] as Record<string, any>;
  const operation = Object.values(item).find((candidate) => candidate.requestBody);
  return operation.requestBody.content['application/json'].schema as Record<string, any>;
};
const keyedBody = (name: string) =>
  document.paths['/api/healthcheck'].post.requestBody.content['application/json'].schema.properties[
    name
  ] as Record<string, any>;

const validator = (schema: Record<string, any>) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: document.components }, 'doc');
  return ajv.compile(
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')),
  );
};

const system = '5d7f5a02-3d8e-4a8c-9a3c-5b0c1f0c2a11';
/** The `type` a variant names; variants are named components (`$ref`). */
const typeOf = (variant: { $ref: string }) => {
  const name = variant.$ref.replace('#/components/schemas/', '');
  return document.components.schemas[name].properties.type.const as string;
};

describe.each([
  ['REST', restBody],
  ['keyed', keyedBody],
])('the %s body of createHealthCheck', (_surface, bodyOf) => {
  it('is one variant per registered check type, a plugin type included, told apart by type', () => {
    const schema = bodyOf('createHealthCheck');
    expect(schema.discriminator).toMatchObject({ propertyName: 'type' });
    expect(Object.keys(schema.discriminator.mapping).sort()).toEqual([...typeIds].sort());
    expect(schema.oneOf.map(typeOf).sort()).toEqual([...typeIds].sort());
    expect(typeIds).toContain('queues.queue-depth');
  });

  it("takes each type's own config and refuses another type's", () => {
    const validate = validator(bodyOf('createHealthCheck'));
    const http = { systemId: system, name: 'web', type: 'healthcheck.http' };
    expect(validate({ ...http, config: { url: 'https://example.com/' } })).toBe(true);
    expect(validate({ ...http, config: { host: 'example.com', port: 443 } })).toBe(false);
    expect(validate({ ...http, config: { url: 'https://example.com/', extra: 1 } })).toBe(false);
    const queue = { systemId: system, name: 'q', type: 'queues.queue-depth' };
    expect(validate({ ...queue, config: { queue: 'jobs', max: 10 } })).toBe(true);
    expect(validate({ ...queue, config: { queue: 'jobs' } })).toBe(false);
    expect(validate({ ...queue, type: 'nobody.unknown', config: {} })).toBe(false);
  });
});

describe('the body of updateHealthCheck', () => {
  it('types config by a new type, keeps a stored secret optional, and allows no type', () => {
    const validate = validator(restBody('updateHealthCheck'));
    const id = system;
    expect(validate({ id, name: 'renamed' })).toBe(true);
    expect(validate({ id, type: 'healthcheck.tcp', config: { host: 'db', port: 5432 } })).toBe(
      true,
    );
    expect(validate({ id, type: 'healthcheck.tcp', config: { url: 'https://x/' } })).toBe(false);
    const postgres = { host: 'db', port: 5432, database: 'app', username: 'monitor' };
    const withoutPassword = validate({ id, type: 'healthcheck.postgres', config: postgres });
    expect(withoutPassword).toBe(true);
  });
});

describe('the committed generated client', () => {
  it('types config by type, and the server takes what it types', async () => {
    const created = await server.keyed(
      'catalog',
      { createSystem: { name: 'typed-configs' } },
      adminKey,
    );
    const { createSystem } = (await created.json()) as { createSystem: { id: string } };
    const body: HealthcheckCreateHealthCheckData['body'] = {
      systemId: createSystem.id,
      name: 'home page',
      type: 'healthcheck.http',
      config: { url: 'https://example.com/', expectedStatus: [200] },
    };
    const wrong: HealthcheckCreateHealthCheckData['body'] = {
      ...body,
      // @ts-expect-error an HTTP check's config has no host and port (a TCP check's has)
      config: { host: 'example.com', port: 443 },
    };
    expect(wrong.type).toBe('healthcheck.http');
    const listening = await server.listen();
    try {
      const client = createClient({
        baseUrl: listening.url,
        headers: { authorization: `Bearer ${adminKey}` },
      });
      const result = await healthcheckCreateHealthCheck({ client, body });
      expect(result.response.status).toBe(200);
      expect(result.data).toMatchObject({ type: 'healthcheck.http', name: 'home page' });
    } finally {
      await listening.close();
    }
  });
});
