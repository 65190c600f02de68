import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminKey } from './support/admin-key.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 23: a published page's custom domain serves that page and nothing else of the server;
 * `/` there leads to the page on the same host; other hosts the server does not know get 404.
 */
const DOMAIN = 'status.acme.example';
let server: TestServer;
let key: string;
let dist: string;
let pageId: string;

async function call(pluginId: string, procedure: string, input: unknown) {
  const response = await server.keyed(pluginId, { [procedure]: input }, key);
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${procedure}: ${JSON.stringify(body)}`);
  return body[procedure];
}

const onHost = (host: string, path: string, init: RequestInit = {}) =>
  server.request(path, { ...init, headers: { ...(init.headers ?? {}), host } });

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'checkline-web-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Checkline UI</title>');
  writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await createTestServer({ webDistDir: dist });
  key = await createAdminKey(server);
  const system = await call('catalog', 'createSystem', { name: 'api' });
  const sections = [
    { title: 'Core', items: [{ kind: 'system', systemId: system.id, displayName: 'API' }] },
  ];
  pageId = (
    await call('statuspage', 'createPage', {
      slug: 'acme',
      title: 'Acme',
      customDomain: DOMAIN,
      sections,
    })
  ).id;
  await call('statuspage', 'publishPage', { id: pageId });
  const other = await call('statuspage', 'createPage', { slug: 'other', title: 'Other' });
  await call('statuspage', 'publishPage', { id: other.id });
});
afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('a status page on its custom domain', () => {
  it('leads / to the page on the same host, and serves the page, its JSON and the UI files there', async () => {
    for (const host of [DOMAIN, `${DOMAIN}:8443`, DOMAIN.toUpperCase()]) {
      const home = await onHost(host, '/');
      expect({ host, status: home.status, location: home.headers.get('location') }).toEqual({
        host,
        status: 302,
        location: '/status/acme',
      });
    }
    const page = await onHost(DOMAIN, '/status/acme');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Checkline UI');
    expect((await onHost(DOMAIN, '/assets/app-1234.js')).status).toBe(200);
    expect((await onHost(DOMAIN, '/favicon.svg')).status).toBe(200);
    const json = await onHost(DOMAIN, '/api/statuspage/public/acme');
    expect(json.status).toBe(200);
    expect(((await json.json()) as { title: string }).title).toBe('Acme');
    expect((await onHost(DOMAIN, '/api/statuspage/public/acme/badge.svg')).status).toBe(200);
  });

  it('serves nothing else of the server there: no other page, no admin UI, no API', async () => {
    const refused = [
      ['GET', '/status/other'],
      ['GET', '/api/statuspage/public/other'],
      ['GET', '/systems'],
      ['GET', '/api/openapi.json'],
      ['GET', '/api/docs'],
      ['POST', '/api/catalog/'],
      ['POST', '/api/auth/'],
      ['GET', '/rest/catalog/systems'],
      ['GET', '//evil.example/'],
      ['GET', '/status/acme-and-more'],
    ] as const;
    for (const [method, path] of refused) {
      const answer = await onHost(DOMAIN, path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(method === 'POST' && { body: '{"getSystems":{}}' }),
      });
      expect({
        method,
        path,
        status: answer.status,
        location: answer.headers.get('location'),
      }).toEqual({
        method,
        path,
        status: 404,
        location: null,
      });
    }
  });

  it('refuses hosts no published page claims, and follows publishing', async () => {
    for (const host of ['evil.example', 'status.acme.example.evil.example', 'xn--acme.example']) {
      const answer = await onHost(host, '/');
      expect({ host, status: answer.status, location: answer.headers.get('location') }).toEqual({
        host,
        status: 404,
        location: null,
      });
    }
    // The server's own names still reach everything.
    expect((await onHost('localhost:3000', '/systems')).status).toBe(200);
    expect((await onHost('127.0.0.1', '/api/statuspage/public/other')).status).toBe(200);

    await call('statuspage', 'unpublishPage', { id: pageId });
    expect((await onHost(DOMAIN, '/')).status).toBe(404);
    await call('statuspage', 'publishPage', { id: pageId });
    expect((await onHost(DOMAIN, '/')).status).toBe(302);
    await call('statuspage', 'updatePage', { id: pageId, customDomain: 'status.acme-two.example' });
    expect((await onHost(DOMAIN, '/')).status).toBe(404);
    expect((await onHost('status.acme-two.example', '/')).headers.get('location')).toBe(
      '/status/acme',
    );
  });
});
