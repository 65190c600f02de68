import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './support/test-server.ts';

const indexHtml = '<!doctype html><html><body><div id="root"></div></body></html>';
const script = 'console.log("app")';

let dist: string;
let server: TestServer;
let unbuilt: TestServer;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'checkline-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), indexHtml);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), script);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dist, '.build-stamp'), 'not served');
  server = await createTestServer({ webDistDir: dist });
  unbuilt = await createTestServer({ webDistDir: join(dist, 'missing') });
});
afterAll(async () => {
  await server.close();
  await unbuilt.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the web UI served at /', () => {
  it.each([
    '/',
    '/auth/error?error=Some_text',
    '/settings/notifications',
    '/systems/1',
    '/status/acme',
    '/status/acme-co',
    '/x/y/z',
  ])('answers index.html for the UI route %s, never cached, under the UI policy', async (path) => {
    const response = await server.request(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(indexHtml);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets with a year-long immutable cache and other files revalidated', async () => {
    const asset = await server.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe(script);
    const icon = await server.request('/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['/assets/index-old.js', '/.build-stamp', '/assets/../../etc/passwd.txt'])(
    'answers a JSON 404 for a file that is not part of the build: %s',
    async (path) => {
      const response = await server.request(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  it.each([
    ['/api/nope/nothing', 'GET'],
    ['/api/unknown-plugin/', 'POST'],
    ['/rest/nope/nothing', 'GET'],
    ['/rest', 'GET'],
    ['/api', 'GET'],
    ['/metrics', 'GET'],
    ['/status-api/x', 'GET'],
  ])('leaves the API alone: %s answers a JSON 404 under the API policy', async (path, method) => {
    const response = await server.request(path, {
      method,
      ...(method === 'POST' && {
        headers: { 'content-type': 'application/json' },
        body: '{"x":{}}',
      }),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    // /api/{plugin}/{procedure} is the oRPC surface's shape, answered in its envelope (docs/api.md).
    if (/^\/api\/[^/]+\/[^/]+$/.test(path)) {
      expect(body).toMatchObject({ json: { code: 'NOT_FOUND', status: 404 } });
    } else {
      expect(body).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('still answers the API and health routes with JSON', async () => {
    expect(await (await server.request('/healthz')).json()).toEqual({ status: 'ok' });
    const status = await server.request('/rest/auth/getRegistrationStatus');
    expect(status.status).toBe(200);
    expect(await status.json()).toHaveProperty('allowRegistration');
  });

  it('without a build, starts anyway and answers 503 with a page saying how to build it', async () => {
    const response = await unbuilt.request('/applications');
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('text/html');
    const page = await response.text();
    expect(page).toContain('The web UI has not been built');
    expect(page).toContain('pnpm --filter @checkline/web build');
    expect((await unbuilt.request('/healthz')).status).toBe(200);
    expect((await unbuilt.request('/api/nope/x')).status).toBe(404);
  });
});
