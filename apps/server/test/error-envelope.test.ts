import { createORPCClient, ORPCError } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { ContractRouterClient } from '@orpc/contract';
import type { catalogContract } from '@checkline/catalog/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/http/middleware.ts';
import { listeningServerPerFile } from './support/server-per-file.ts';

/**
 * Issue 24.2: one error envelope per surface, errors raised before a procedure runs included.
 * `@orpc/client` gets an ORPCError with code, status, message and data.requestId; REST and keyed
 * callers get `{code, message, requestId}`.
 */
const fixture = listeningServerPerFile();
let session: { cookie: string; origin: string };

type Client = ContractRouterClient<{ catalog: typeof catalogContract }>;
const rpcClient = (headers: Record<string, string>): Client =>
  createORPCClient(new RPCLink({ url: `${fixture.url}/api`, headers }));

beforeAll(async () => {
  session = await fixture.server.adminSession();
});

const badKey = { authorization: 'Bearer ck_00000000-0000-4000-8000-000000000000_wrong' };
const cookieWithoutOrigin = () => ({ cookie: session.cookie });

interface Case {
  what: string;
  headers: () => Record<string, string>;
  status: number;
  code: string;
}

const beforeTheProcedure: Case[] = [
  { what: 'a bad key', headers: () => badKey, status: 401, code: 'UNAUTHORIZED' },
  {
    what: 'a session cookie without Origin',
    headers: cookieWithoutOrigin,
    status: 403,
    code: 'FORBIDDEN',
  },
];

const expectErrorObject = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ code, message: expect.any(String) });
  expect(body.requestId).toBe(response.headers.get('x-request-id'));
};

describe('@orpc/client receives an ORPCError', () => {
  for (const { what, headers, status, code } of beforeTheProcedure) {
    it(`for ${what}`, async () => {
      const error = await rpcClient(headers())
        .catalog.createSystem({ name: 'never' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ORPCError);
      expect(error).toMatchObject({
        code,
        status,
        message: expect.any(String),
        data: { requestId: expect.any(String) },
      });
    });
  }

  it('for an unknown procedure', async () => {
    const client = rpcClient({ authorization: badKey.authorization }) as unknown as {
      catalog: { getSystemz(input: object): Promise<unknown> };
    };
    const anonymous = createORPCClient<{
      catalog: { getSystemz(input: object): Promise<unknown> };
    }>(new RPCLink({ url: `${fixture.url}/api` }));
    for (const caller of [anonymous, client]) {
      const error = await caller.catalog.getSystemz({}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ORPCError);
      expect((error as ORPCError<string, unknown>).data).toMatchObject({
        requestId: expect.any(String),
      });
    }
    const error = await anonymous.catalog.getSystemz({}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((error as Error).message).toContain('getSystems');
  });

  it('for a malformed body and one too large', async () => {
    const malformed = await fixture.server.request('/api/catalog/createSystem', {
      method: 'POST',
      headers: {
        ...cookieWithoutOrigin(),
        origin: session.origin,
        'content-type': 'application/json',
      },
      body: '{"json":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      json: { code: 'BAD_REQUEST', status: 400, data: { requestId: expect.any(String) } },
    });
    const large = await fixture.server.request('/api/catalog/createSystem', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) },
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({
      json: { code: 'PAYLOAD_TOO_LARGE', status: 413, data: { requestId: expect.any(String) } },
    });
  });
});

describe('REST and keyed callers receive {code, message, requestId}', () => {
  for (const { what, headers, status, code } of beforeTheProcedure) {
    it(`for ${what}`, async () => {
      const json = { ...headers(), 'content-type': 'application/json' };
      for (const [path, body] of [
        ['/rest/catalog/createSystem', '{"name":"never"}'],
        ['/api/catalog/', '{"createSystem":{"name":"never"}}'],
      ] as const) {
        const response = await fixture.server.request(path, {
          method: 'POST',
          headers: json,
          body,
        });
        await expectErrorObject(response, status, code);
      }
    });
  }

  it('for a malformed JSON body', async () => {
    const headers = { ...session, 'content-type': 'application/json' };
    for (const path of ['/rest/catalog/createSystem', '/api/catalog/']) {
      await expectErrorObject(
        await fixture.server.request(path, { method: 'POST', headers, body: '{"name":' }),
        400,
        'BAD_REQUEST',
      );
    }
  });

  it('for an unknown procedure and a raw route sharing the oRPC path shape', async () => {
    await expectErrorObject(
      await fixture.server.request('/rest/catalog/getSystemz', { headers: badKey }),
      404,
      'NOT_FOUND',
    );
    // A raw route of the same path shape keeps its own answer: logout is no oRPC procedure.
    const logout = await fixture.server.request('/api/auth-backend/logout', { method: 'POST' });
    expect(logout.status).toBeLessThan(400);
    expect(await logout.text()).not.toContain('"json"');
  });
});
