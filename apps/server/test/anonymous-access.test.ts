import { createORPCClient, ORPCError } from '@orpc/client';
import { RPCLink } from '@orpc/client/fetch';
import type { ContractRouterClient } from '@orpc/contract';
import type { catalogContract } from '@checkline/catalog/contract';
import { describe, expect, it } from 'vitest';
import { listeningServerPerFile } from './support/server-per-file.ts';

// No principals injected: the server's own resolution decides who is calling.
const fixture = listeningServerPerFile();

describe('callers without credentials', () => {
  it('are refused with UNAUTHORIZED on the keyed surface', async () => {
    const response = await fixture.server.keyed('catalog', { getSystems: {} });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED', procedure: 'getSystems' });
  });

  it('are refused with UNAUTHORIZED on the REST surface, for reads and writes', async () => {
    const read = await fixture.server.rest('GET', 'catalog/getSystems');
    expect(read.status).toBe(401);
    const write = await fixture.server.rest('POST', 'catalog/createSystem', {
      body: { name: 'x' },
    });
    expect(write.status).toBe(401);
    expect(await write.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('are refused with UNAUTHORIZED through the oRPC protocol', async () => {
    const client: ContractRouterClient<{ catalog: typeof catalogContract }> = createORPCClient(
      new RPCLink({ url: `${fixture.url}/api` }),
    );
    const error = await client.catalog.getSystems({}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ORPCError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });
});
