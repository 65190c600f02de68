import { catalogPlugin } from '@checkline/catalog';
import { describe, expect, it } from 'vitest';
import { testPrincipals } from './support/principals.ts';
import { serverPerFile } from './support/server-per-file.ts';

/** Issue 9 item 8: one access-log line per request, at info, without the query string. */
const fixture = serverPerFile({
  plugins: [catalogPlugin],
  principals: testPrincipals,
});

const accessLines = (requestId: string) =>
  fixture.server.logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request' && line.requestId === requestId);

describe('access log', () => {
  it('writes one line per request with method, path, status, duration, principal and id', async () => {
    const response = await fixture.server.rest('GET', 'catalog/getSystems', {
      token: 'reader',
      query: 'owner=secret-in-query',
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id')!;
    const lines = accessLines(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/rest/catalog/getSystems',
      status: 200,
      durationMs: expect.any(Number),
      principal: { kind: testPrincipals.reader.kind, id: testPrincipals.reader.id },
    });
    expect(JSON.stringify(lines[0])).not.toContain('secret-in-query');
  });

  it('logs failures and anonymous callers alike', async () => {
    const denied = await fixture.server.keyed('catalog', { getSystems: {} });
    expect(denied.status).toBe(401);
    expect(accessLines(denied.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/api/catalog/',
        status: 401,
        principal: { kind: 'anonymous', id: null },
      }),
    ]);
    const missing = await fixture.server.request('/nowhere?x=1');
    expect(accessLines(missing.headers.get('x-request-id')!)).toEqual([
      expect.objectContaining({ method: 'GET', path: '/nowhere', status: 404 }),
    ]);
  });
});
