import { catalogContract } from '@checkline/catalog/contract';
import { catalogPlugin } from '@checkline/catalog';
import { describe, expect, it } from 'vitest';
import { testPrincipals } from './support/principals.ts';
import { serverPerFile } from './support/server-per-file.ts';

const fixture = serverPerFile({
  plugins: [catalogPlugin],
  principals: testPrincipals,
});

const catalogProcedures = Object.keys(catalogContract);

describe('keyed body: a key given twice', () => {
  it('is BAD_REQUEST naming the key, and nothing runs', async () => {
    const response = await fixture.server.keyed(
      'catalog',
      '{"createSystem":{"name":"a1"},"createSystem":{"name":"a2"}}',
      'manager',
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'BAD_REQUEST', procedure: 'createSystem' });
    expect(body.message).toContain('createSystem');
    const list = await fixture.server.keyed('catalog', { getSystems: {} }, 'reader');
    expect(await list.json()).toEqual({ getSystems: { systems: [], nextCursor: null } });
  });

  it('is found when the second spelling escapes a character', async () => {
    const response = await fixture.server.keyed(
      'catalog',
      '{"getSystems":{},"getGroups":{},"get\\u0053ystems":{"owner":"x"}}',
      'reader',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ procedure: 'getSystems' });
  });
});

describe('an unknown procedure lists the plugin procedures', () => {
  const expectListed = async (response: Response) => {
    expect(response.status).toBe(404);
    const answer = (await response.json()) as { code: string; message: string };
    // The oRPC surface answers in oRPC's envelope (docs/api.md, "Calling the API").
    const body = 'json' in answer ? (answer.json as typeof answer) : answer;
    expect(body.code).toBe('NOT_FOUND');
    expect(body.message).toContain('getSystemz');
    for (const name of catalogProcedures) expect(body.message).toContain(name);
  };

  it('on the keyed surface', async () => {
    await expectListed(await fixture.server.keyed('catalog', { getSystemz: {} }, 'reader'));
  });

  it('on the oRPC RPC surface', async () => {
    await expectListed(
      await fixture.server.request('/api/catalog/getSystemz', {
        method: 'POST',
        headers: { authorization: 'Bearer reader', 'content-type': 'application/json' },
        body: '{"json":{}}',
      }),
    );
  });

  it('on the REST surface', async () => {
    await expectListed(await fixture.server.rest('GET', 'catalog/getSystemz', { token: 'reader' }));
  });

  it('and an unknown plugin lists the plugins', async () => {
    const response = await fixture.server.keyed('catalogue', { getSystems: {} }, 'reader');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toMatch(/catalogue.*catalog/);
  });
});
