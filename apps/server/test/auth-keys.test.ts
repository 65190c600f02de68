import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import { createORPCClient } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { ContractRouterClient } from '@orpc/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

type Client = ContractRouterClient<{ auth: AuthContract; catalog: CatalogContract }>;

let server: TestServer;
let admin: Client;
/** Every response body the tests saw, to search for secrets at the end. */
const bodies: string[] = [];

/** A typed oRPC client (RPC protocol) straight into the app, with the given headers. */
const clientWith = (headers: Record<string, string>): Client =>
  createORPCClient(
    new RPCLink({
      url: `${testEnv.BASE_URL}/api`,
      headers,
      fetch: async (request) => {
        const response = await server.app.fetch(request);
        bodies.push(await response.clone().text());
        return response;
      },
    }),
  );
const withKey = (key: string) => clientWith({ authorization: `Bearer ${key}` });

async function record(response: Response | Promise<Response>) {
  const resolved = await response;
  bodies.push(await resolved.clone().text());
  return resolved;
}

beforeAll(async () => {
  // Dozens of refused keys below would otherwise spend the failed-authentication budget.
  server = await createTestServer({
    plugins: createPlugins(testEnv, { rateLimits: { failedAuthPerIp: false } }),
  });
  const { cookie: session } = await server.adminSession();
  admin = clientWith({ cookie: session, origin: testEnv.BASE_URL });
});
afterAll(() => server.close());

/** The status each surface answers for `getSystems` with this bearer key (or none). */
async function statuses(key?: string) {
  const keyed = await record(server.keyed('catalog', { getSystems: {} }, key));
  const rest = await record(server.rest('GET', 'catalog/getSystems', { token: key }));
  const rpc = await record(
    server.request('/api/catalog/getSystems', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key !== undefined && { authorization: `Bearer ${key}` }),
      },
      body: JSON.stringify({ json: {} }),
    }),
  );
  return { keyed: keyed.status, rest: rest.status, rpc: rpc.status };
}

const everywhere = (status: number) => ({ keyed: status, rest: status, rpc: status });

describe('application keys on every surface', () => {
  it('refuse a missing, malformed, unknown, revoked, expired or rotated-away key with 401', async () => {
    const revoked = await admin.auth.createApplication({ name: 'revoked' });
    await admin.auth.deleteApplication({ id: revoked.application.id });
    const expired = await admin.auth.createApplication({ name: 'expired' });
    // No caller may set a past expiry; a key whose expiry has passed looks like this.
    await server.database.db.execute(
      `update auth.applications set expires_at = '2020-01-01T00:00:00Z' where id = '${expired.application.id}'`,
    );
    const rotated = await admin.auth.createApplication({ name: 'rotated' });
    await admin.auth.regenerateApplicationSecret({ id: rotated.application.id });
    const unknown = rotated.secret.replace(rotated.application.id, crypto.randomUUID());
    const cases = {
      missing: undefined,
      malformed: 'ck_not-a-key',
      unknown,
      revoked: revoked.secret,
      expired: expired.secret,
      rotatedAway: rotated.secret,
    };
    for (const [name, key] of Object.entries(cases)) {
      expect(await statuses(key), name).toEqual(everywhere(401));
    }
    const error = await withKey(rotated.secret)
      .catalog.getSystems({})
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('answer 403 Missing access to a new application, and 200 once a role grants the rule', async () => {
    const { application, secret } = await admin.auth.createApplication({ name: 'ci' });
    expect(await statuses(secret)).toEqual(everywhere(403));
    const refused = await record(server.keyed('catalog', { getSystems: {} }, secret));
    expect(await refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: catalog.catalog.read',
    });
    const rest = await record(server.rest('GET', 'catalog/getSystems', { token: secret }));
    expect(await rest.json()).toMatchObject({ message: 'Missing access: catalog.catalog.read' });

    const readers = await admin.auth.createRole({
      name: 'catalog-readers',
      accessRules: ['catalog.catalog.read'],
    });
    const { roles } = await admin.auth.getRoles({});
    const applicationsRole = roles.find((role) => role.name === 'applications')!;
    await admin.auth.updateApplication({
      id: application.id,
      roleIds: [applicationsRole.id, readers.id],
    });
    expect(await statuses(secret)).toEqual(everywhere(200));
    await expect(withKey(secret).catalog.getSystems({})).resolves.toEqual({
      systems: [],
      nextCursor: null,
    });
    await expect(withKey(secret).auth.getMe({})).resolves.toMatchObject({
      kind: 'application',
      id: application.id,
      name: 'ci',
      accessRules: ['catalog.catalog.read'],
    });
  });

  it('keep working during a rotation grace period, then only the new key does', async () => {
    const reader = await admin.auth.createRole({
      name: 'grace-readers',
      accessRules: ['catalog.catalog.read'],
    });
    const { application, secret } = await admin.auth.createApplication({ name: 'graceful' });
    await admin.auth.updateApplication({ id: application.id, roleIds: [reader.id] });
    const { secret: next } = await admin.auth.regenerateApplicationSecret({
      id: application.id,
      gracePeriodSeconds: 300,
    });
    expect(await statuses(secret)).toEqual(everywhere(200));
    expect(await statuses(next)).toEqual(everywhere(200));
    await admin.auth.regenerateApplicationSecret({ id: application.id });
    expect(await statuses(secret)).toEqual(everywhere(401));
    expect(await statuses(next)).toEqual(everywhere(401));
  });

  it('refuse any string that is not a valid key with 401, never another answer', async () => {
    const { secret } = await admin.auth.createApplication({ name: 'fuzzed' });
    const printable = fc
      .string({ unit: 'binary-ascii', minLength: 1, maxLength: 120 })
      .map((value) =>
        [...value].map((char) => (char > ' ' && char < '\x7f' ? char : 'x')).join(''),
      );
    const nearMiss = fc
      .tuple(fc.nat({ max: secret.length - 1 }), fc.constantFrom(...'0aZ_-.'))
      .map(([at, char]) => `${secret.slice(0, at)}${char}${secret.slice(at + 1)}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(printable, nearMiss), async (key) => {
        fc.pre(key !== secret);
        const response = await record(server.rest('GET', 'catalog/getSystems', { token: key }));
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      }),
      { numRuns: 150 },
    );
  });

  it('show a secret once, and no response or log line ever again', async () => {
    const created = await admin.auth.createApplication({ name: 'secretive' });
    const { secret: rotated } = await admin.auth.regenerateApplicationSecret({
      id: created.application.id,
      gracePeriodSeconds: 60,
    });
    await statuses(created.secret);
    await statuses(rotated);
    await admin.auth.getApplications({});
    await admin.auth.getAuditLog({});
    for (const secret of [created.secret, rotated]) {
      const random = secret.slice(secret.lastIndexOf('_') + 1);
      expect(bodies.filter((body) => body.includes(random))).toHaveLength(1);
      expect(server.logLines.filter((line) => line.includes(random))).toEqual([]);
    }
    expect(server.logLines.filter((line) => line.includes(testAdmin.password))).toEqual([]);
  });
});
