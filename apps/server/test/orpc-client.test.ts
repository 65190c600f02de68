import { createORPCClient, ORPCError, safe } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { ContractRouterClient } from '@orpc/contract';
import type { catalogContract } from '@checkline/catalog/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPrincipals } from './support/principals.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let listening: { url: string; close(): Promise<void> };

type Client = ContractRouterClient<{ catalog: typeof catalogContract }>;
const clientAs = (token: string): Client =>
  createORPCClient(
    new RPCLink({ url: `${listening.url}/api`, headers: { authorization: `Bearer ${token}` } }),
  );

beforeAll(async () => {
  server = await createTestServer({ principals: testPrincipals });
  listening = await server.listen();
});
afterAll(async () => {
  await listening.close();
  await server.close();
});

describe('@orpc/client with RPCLink over a real port', () => {
  it('creates and reads systems with typed calls', async () => {
    const created = await clientAs('manager').catalog.createSystem({
      name: 'via-rpc',
      metadata: { region: 'eu' },
    });
    expect(created.name).toBe('via-rpc');
    const { systems } = await clientAs('reader').catalog.getSystems({});
    expect(systems.map((system) => system.id)).toContain(created.id);
    await expect(clientAs('reader').catalog.getSystem({ id: created.id })).resolves.toEqual(
      created,
    );
  });

  it('receives our errors with their code, status, message and request id', async () => {
    const error = await clientAs('nobody')
      .catalog.getSystems({})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ORPCError);
    expect(error).toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
      message: 'Missing access: catalog.catalog.read',
      data: { requestId: expect.any(String) },
    });
  });

  it('receives validation issues per field', async () => {
    const error = await clientAs('manager')
      .catalog.createSystem({ name: '' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'BAD_REQUEST',
      data: { issues: [{ path: 'name', message: 'Name must not be empty' }] },
    });
  });

  it('receives an error the contract declares as a defined, typed error', async () => {
    const { error, isDefined } = await safe(
      clientAs('manager').catalog.getGroup({ id: '0b6e3c7a-4f1d-4a8e-9c2b-5d7f1e3a9b64' }),
    );
    if (!isDefined) throw new Error(`expected a defined error, got ${String(error)}`);
    // The contract's `.errors(raises('NOT_FOUND'))` types the code: no other is possible here.
    const code: 'NOT_FOUND' = error.code;
    expect(error).toBeInstanceOf(ORPCError);
    expect({ code, status: error.status }).toEqual({ code: 'NOT_FOUND', status: 404 });
  });
});
