import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumExecutable, chromiumFlags } from '@checkline/vitest-config/chromium';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverFolder } from './support/run-tool.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

const artifacts = join(serverFolder, 'test', 'artifacts');

let server: TestServer;
let listening: { url: string; close(): Promise<void> };
let browser: Browser | undefined;

beforeAll(async () => {
  server = await createTestServer();
  listening = await server.listen();
});
afterAll(async () => {
  await browser?.close();
  await listening.close();
  await server.close();
});

describe('GET /api/docs', () => {
  it('is refused to anonymous callers, like the document it shows', async () => {
    const response = await server.request('/api/docs');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('serves the reference script from the installed package, not a CDN', async () => {
    const { cookie } = await server.adminSession();
    const page = await server.request('/api/docs', { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/api/docs/scalar.js']);
    expect(html).not.toMatch(/https?:\/\/(?!localhost|127\.0\.0\.1)[^"'\s]*\.(js|css)/);
    const script = await server.request('/api/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('renders in headless Chromium without reaching outside this server (screenshot kept)', async () => {
    const { cookie } = await server.adminSession();
    const [name, value] = cookie.split('=') as [string, string];
    browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumFlags });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([{ name, value, url: listening.url }]);
    const page = await context.newPage();
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === listening.url || url.protocol === 'data:' || url.protocol === 'blob:') {
        return route.continue();
      }
      outside.push(url.href);
      return route.abort();
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const response = await page.goto(`${listening.url}/api/docs`, { timeout: 60_000 });
    expect(response?.status()).toBe(200);
    await page
      .getByText('Checkline API', { exact: false })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    // The sidebar lists the operations by their procedure names, grouped by plugin.
    await page
      .getByText('auth.getMe', { exact: true })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await page.getByText('catalog', { exact: true }).first().waitFor({ timeout: 60_000 });

    mkdirSync(artifacts, { recursive: true });
    const screenshot = join(artifacts, 'api-docs.png');
    await page.screenshot({ path: screenshot, fullPage: false });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it("sends a signed-in reader's Test Request with the browser's session, not an empty bearer", async () => {
    const { cookie } = await server.adminSession();
    const [name, value] = cookie.split('=') as [string, string];
    browser ??= await chromium.launch({
      executablePath: chromiumExecutable(),
      args: chromiumFlags,
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([{ name, value, url: listening.url }]);
    const page = await context.newPage();
    const sent: { authorization: string | undefined; status: number }[] = [];
    page.on('response', (response) => {
      if (!response.url().startsWith(`${listening.url}/rest/auth/getMe`)) return;
      const authorization = response.request().headers().authorization;
      sent.push({ authorization, status: response.status() });
    });
    await page.goto(`${listening.url}/api/docs#tag/auth/GET/rest/auth/getMe`, { timeout: 60_000 });
    await page.getByText('auth.getMe', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page
      .getByRole('button', { name: /Test Request/i })
      .first()
      .click();
    const send = page.getByRole('button', { name: /^Send/i }).first();
    await send.waitFor({ state: 'visible', timeout: 30_000 });
    await send.click();
    for (let waited = 0; sent.length === 0 && waited < 30_000; waited += 100) {
      await page.waitForTimeout(100);
    }
    expect(sent).toEqual([{ authorization: undefined, status: 200 }]);
    await context.close();
  }, 180_000);
});
