import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { openedDialog } from './support/dialog.ts';
import { checkScreen } from './support/screen.ts';
import { startTarget, type Target } from './support/target.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { createPersonWithRules } from './support/people.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

/**
 * Issue 23: the public status page as an anonymous visitor sees it (no sign-in, no call but the
 * page's anonymous JSON, nothing the page does not publish), and the admin screens building one.
 */
let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;
let target: Target;
const ids: Record<string, string> = {};

const WAIT_MS = 60_000;
const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** Waits (bounded) until a scheduled run of each system's check is in today's rollups. */
async function scheduledRunsOf(systemIds: string[]) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const { systems } = await ui.call<{ systems: { days: { uptimePercent: number | null }[] }[] }>(
      'healthcheck',
      'getDailyUptime',
      { systemIds, days: 1 },
      admin,
    );
    if (systems.every((system) => system.days[0]!.uptimePercent !== null)) return;
    if (Date.now() > deadline) throw new Error('the scheduler did not run the checks in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  target = await startTarget((_request, response) => response.end('ok'));
  ({ ui, browser, admin } = await startBrowserSuite());
  const system = async (name: string) =>
    (await ui.call<{ id: string }>('catalog', 'createSystem', { name }, admin)).id;
  ids.payments = await system('payments-internal-name');
  ids.search = await system('search-internal-name');
  ids.unlisted = await system('unlisted-internal-name');
  for (const systemId of [ids.payments, ids.search]) {
    await ui.call(
      'healthcheck',
      'createHealthCheck',
      {
        systemId,
        name: 'check-internal-name',
        type: 'healthcheck.http',
        config: { url: target.url },
        intervalSeconds: 3_600,
        timeoutMs: 2_000,
      },
      admin,
    );
  }
  await scheduledRunsOf([ids.payments, ids.search]);
  const incident = await ui.call<{ id: string }>(
    'incident',
    'createIncident',
    { title: 'Card payments fail', severity: 'major', systemIds: [ids.payments] },
    admin,
  );
  await ui.call(
    'incident',
    'updateIncident',
    { id: incident.id, message: 'A fix is rolling out', status: 'identified' },
    admin,
  );
  await ui.call(
    'incident',
    'createIncident',
    { title: 'Unlisted trouble', severity: 'minor', systemIds: [ids.unlisted] },
    admin,
  );
  await ui.call(
    'maintenance',
    'scheduleWindow',
    {
      title: 'Database upgrade',
      description: 'Short pauses',
      systemIds: [ids.search],
      startAt: hoursFromNow(24),
      endAt: hoursFromNow(25),
    },
    admin,
  );
  const page = await ui.call<{ id: string }>(
    'statuspage',
    'createPage',
    {
      slug: 'acme',
      title: 'Acme',
      description: 'Live status of <b>Acme</b>’s services.',
      // Another host than the UI's img-src allows: the browser blocks it, the page leaves it out.
      logoUrl: 'https://logo.example.invalid/acme.png',
      brandColor: '#1c7ed6',
      sections: [
        {
          title: 'Core services',
          items: [
            { kind: 'system', systemId: ids.payments, displayName: 'Payments' },
            { kind: 'system', systemId: ids.search, displayName: 'Search' },
          ],
        },
      ],
    },
    admin,
  );
  await ui.call('statuspage', 'publishPage', { id: page.id }, admin);
  ids.page = page.id;
});
afterAll(() => closeAll(browser, ui, target));

/** An anonymous visitor's page, with every request it sends to the server's API recorded. */
async function anonymousPage(colorScheme: 'light' | 'dark') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
  const page = await context.newPage();
  const apiRequests: { method: string; path: string; cookie: string | undefined }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/rest/')) {
      apiRequests.push({
        method: request.method(),
        path: url.pathname,
        cookie: request.headers().cookie,
      });
    }
  });
  return { context, page, apiRequests };
}

/** Each day's bars end inside their section's card, with room to spare, at the current width. */
async function barsInsideTheirCards(page: Page) {
  return page.getByTestId('daily-uptime').evaluateAll((groups) =>
    groups.map((group) => {
      const card = group.closest('section')!.getBoundingClientRect();
      const bars = group.getBoundingClientRect();
      return bars.left - card.left >= 8 && card.right - bars.right >= 8;
    }),
  );
}

describe('the public status page in a real browser', { timeout: 240_000 }, () => {
  it('an anonymous visitor reads it without signing in, asking only its public JSON', async () => {
    const { context, page, apiRequests } = await anonymousPage('light');
    await page.goto(`${ui.url}/status/acme`);
    await page.getByRole('heading', { name: 'Acme', level: 1 }).waitFor({ timeout: WAIT_MS });
    expect(new URL(page.url()).pathname).toBe('/status/acme');

    const core = page.getByRole('region', { name: 'Core services' });
    const payments = core.locator('[data-item="Payments"]');
    await payments.locator('[data-status="operational"]').waitFor({ timeout: WAIT_MS });
    await core.locator('[data-item="Search"] [data-status="operational"]').waitFor();
    const todaysBar = payments.locator(`[data-day="${new Date().toISOString().slice(0, 10)}"]`);
    expect(Number(await todaysBar.getAttribute('data-uptime'))).toBe(100);
    expect(await payments.getByTestId('daily-uptime').locator('[data-day]').count()).toBe(90);

    const incidents = page.getByRole('region', { name: 'Active incidents' });
    await incidents.getByRole('heading', { name: 'Card payments fail' }).waitFor();
    await incidents.getByText('A fix is rolling out').waitFor();
    const maintenance = page.getByRole('region', { name: 'Maintenance' });
    await maintenance.getByRole('heading', { name: 'Database upgrade' }).waitFor();
    await maintenance.getByText('Scheduled').waitFor();

    await page.getByText('Live status of <b>Acme</b>’s services.').waitFor();
    expect(await page.locator('main b').count()).toBe(0);
    await expect.poll(() => page.locator('main img').count()).toBe(0);

    const text = (await page.locator('body').textContent()) ?? '';
    for (const hidden of ['internal-name', 'Unlisted trouble', ...Object.values(ids)]) {
      expect(text).not.toContain(hidden);
    }
    expect(await page.getByRole('link', { name: 'Atom feed' }).getAttribute('href')).toBe(
      '/api/statuspage/public/acme/feed.atom',
    );
    const badge = await page.getByRole('link', { name: 'Status badge (SVG)' }).getAttribute('href');
    expect((await context.request.get(`${ui.url}${badge}`)).headers()['content-type']).toBe(
      'image/svg+xml',
    );

    await checkScreen(page, 'status-page');
    await page.setViewportSize({ width: 375, height: 900 });
    expect(await barsInsideTheirCards(page)).toEqual([true, true]);

    expect(apiRequests.length).toBeGreaterThan(0);
    for (const request of apiRequests) {
      expect(request).toEqual({
        method: 'GET',
        path: '/api/statuspage/public/acme',
        cookie: undefined,
      });
    }
    await context.close();
  });

  it('reads well in dark mode, and an unknown slug says so without sending anyone to sign in', async () => {
    const { context, page } = await anonymousPage('dark');
    await page.goto(`${ui.url}/status/acme`);
    await page.locator('[data-item="Payments"] [data-status="operational"]').waitFor({
      timeout: WAIT_MS,
    });
    expect(
      await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
    ).toBe('dark');
    await checkScreen(page, 'status-page-dark');

    await page.goto(`${ui.url}/status/no-such-page`);
    await page.getByRole('heading', { name: 'Status page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/status/no-such-page');
    await context.close();
  });

  it('an admin builds a page in the admin screens, publishes it, and visitors see it', async () => {
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/status-pages`);
    await page.locator('[data-page="acme"]').waitFor({ timeout: WAIT_MS });
    await page.getByRole('button', { name: 'New status page' }).click();
    const dialog = await openedDialog(page, 'New status page');
    await dialog.getByLabel(/^Title/).fill('Search status');
    await dialog.getByLabel(/^Slug/).fill('Search Page');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // The server's issue is shown beside its field; nothing was created.
    await dialog.getByText('Use lowercase letters, digits and single dashes').waitFor();
    await dialog.getByLabel(/^Slug/).fill('search');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Search status', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByLabel(/^Section 1 title/).fill('Search');
    await page.getByRole('textbox', { name: 'Add to section 1' }).click();
    await page.getByRole('option', { name: 'search-internal-name' }).click();
    const displayName = page.getByLabel(/^Display name of system search-internal-name/);
    await expect.poll(() => displayName.inputValue()).toBe('search-internal-name');
    await displayName.fill('Site search');
    await page.getByRole('textbox', { name: 'Add to section 1' }).click();
    await page.getByRole('option', { name: 'payments-internal-name' }).click();
    await page.getByLabel(/^Display name of system payments-internal-name/).fill('Checkout');
    await page.getByRole('button', { name: 'Move payments-internal-name up in section 1' }).click();
    await page.getByLabel(/^Brand colour/).fill('#2b8a3e');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor({ timeout: WAIT_MS });
    const saved = async () =>
      (
        await ui.call<{ pages: { slug: string; published: boolean; sections: unknown[] }[] }>(
          'statuspage',
          'getPages',
          {},
          admin,
        )
      ).pages.find((candidate) => candidate.slug === 'search');
    await expect
      .poll(async () => (await saved())?.sections, { timeout: WAIT_MS })
      .toEqual([
        {
          title: 'Search',
          items: [
            { kind: 'system', systemId: ids.payments, displayName: 'Checkout' },
            { kind: 'system', systemId: ids.search, displayName: 'Site search' },
          ],
        },
      ]);

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor({ timeout: WAIT_MS });
    expect((await saved())?.published).toBe(true);
    await checkScreen(page, 'status-page-editor');

    const visitor = await anonymousPage('light');
    await visitor.page.goto(`${ui.url}/status/search`);
    await visitor.page.locator('[data-item="Site search"]').waitFor({ timeout: WAIT_MS });
    expect(await visitor.page.getByText('search-internal-name').count()).toBe(0);
    await visitor.context.close();

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).waitFor({ timeout: WAIT_MS });
    expect((await saved())?.published).toBe(false);
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = await openedDialog(page, 'Delete status page');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${ui.url}/status-pages`);
    await page.locator('[data-page="acme"]').waitFor();
    expect(await saved()).toBeUndefined();
    await checkScreen(page, 'status-pages');
  });

  it('shows the admin screens only to whom the rules allow, read-only without manage', async () => {
    const reader = { email: 'reader@example.com', password: 'reader-password-123', name: 'Rea' };
    const other = { email: 'other@example.com', password: 'other-password-123', name: 'Oto' };
    const { usersRoleId } = await createPersonWithRules(ui, admin, reader, 'status-readers', [
      'statuspage.page.read',
      'catalog.catalog.read',
    ]);
    await ui.call('auth', 'createUser', { ...other, roleIds: [usersRoleId] }, admin);

    const asReader = (await signedInPage(browser, ui.url, reader)).page;
    await asReader.goto(`${ui.url}/status-pages`);
    await asReader.locator('[data-page="acme"]').waitFor({ timeout: WAIT_MS });
    await asReader.getByRole('link', { name: 'Status pages' }).waitFor();
    expect(await asReader.getByRole('button', { name: 'New status page' }).count()).toBe(0);
    await asReader.goto(`${ui.url}/status-pages/${ids.page}`);
    const title = asReader.getByLabel(/^Title/);
    await title.waitFor({ timeout: WAIT_MS });
    expect(await title.isDisabled()).toBe(true);
    for (const action of ['Save', 'Publish', 'Unpublish', 'Delete', 'Add section']) {
      const button = asReader.getByRole('button', { name: action, exact: true });
      expect((await button.count()) === 0 || (await button.isDisabled()), action).toBe(true);
    }

    const asOther = (await signedInPage(browser, ui.url, other)).page;
    await asOther.goto(`${ui.url}/status-pages`);
    await asOther.getByText('Your account may not open this page.').waitFor({ timeout: WAIT_MS });
    expect(await asOther.getByRole('link', { name: 'Status pages' }).count()).toBe(0);
  });
});
