import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './support/test-server.ts';

let server: TestServer;
let closed = false;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  if (!closed) await server.close();
});

describe('health endpoints', () => {
  it('GET /healthz answers 200 while the process is up', async () => {
    const response = await server.request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 and names the database while it is reachable', async () => {
    const response = await server.request('/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      database: expect.stringMatching(/^(pglite|postgres)$/),
    });
  });

  it('unknown paths answer the 404 error object with a request id', async () => {
    const response = await server.request('/nowhere');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      code: 'NOT_FOUND',
      message: 'Not found',
      requestId: response.headers.get('x-request-id'),
    });
  });

  it('GET /readyz answers 503 once the database is gone, and the process keeps answering', async () => {
    await server.close();
    closed = true;
    const response = await server.request('/readyz');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await server.request('/healthz')).status).toBe(200);
  });
});
