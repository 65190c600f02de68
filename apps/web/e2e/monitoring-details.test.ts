import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { openedDialog } from './support/dialog.ts';
import { checkScreen } from './support/screen.ts';
import { startTarget, type Target } from './support/target.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;
let target: Target;

beforeAll(async () => {
  target = await startTarget((_request, response) => response.end('ok'));
  ({ ui, browser, admin } = await startBrowserSuite());
});
afterAll(() => closeAll(browser, ui, target));

const WAIT_MS = 60_000;

describe('the monitoring screens in detail', { timeout: 240_000 }, () => {
  it('the dashboard shows only the systems of the group picked', async () => {
    const storefront = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'storefront-web' },
      admin,
    );
    await ui.call('catalog', 'createSystem', { name: 'ledger-db' }, admin);
    const group = await ui.call<{ id: string }>('catalog', 'createGroup', { name: 'Shop' }, admin);
    await ui.call(
      'catalog',
      'addSystemToGroup',
      { groupId: group.id, systemId: storefront.id },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);

    await page.goto(`${ui.url}/`);
    await page.locator('[data-system="ledger-db"]').waitFor();
    await page.getByRole('textbox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Shop' }).click();
    await page.locator('[data-system="ledger-db"]').waitFor({ state: 'detached' });
    await page.locator('[data-system="storefront-web"]').waitFor();
    await checkScreen(page, 'dashboard-group');
  });

  it('dependencies set on the system page reach the API and show as links', async () => {
    const app = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'orders-api' },
      admin,
    );
    const db = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'orders-db' },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);

    await page.goto(`${ui.url}/systems/${app.id}`);
    await page.getByText('No dependencies.').waitFor();
    await page.getByRole('button', { name: 'Change dependencies' }).click();
    await page.getByRole('textbox', { name: 'Systems it depends on' }).click();
    await page.getByRole('option', { name: 'orders-db' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save dependencies' }).click();
    await page.getByTestId('dependencies').getByRole('link', { name: 'orders-db' }).waitFor();

    const saved = await ui.call<{ dependsOn: string[] }>(
      'healthcheck',
      'getSystemDependencies',
      { systemId: app.id },
      admin,
    );
    expect(saved.dependsOn).toEqual([db.id]);
  });

  it('the response-time chart zooms from runs to rollups, with daily uptime bars', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'catalog-search' },
      admin,
    );
    await ui.call(
      'healthcheck',
      'createHealthCheck',
      {
        systemId: system.id,
        name: 'home',
        type: 'healthcheck.http',
        config: { url: target.url },
        intervalSeconds: 10,
        timeoutMs: 5000,
      },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/systems/${system.id}`);
    const card = page.getByRole('region', { name: 'Check home' });
    const chart = card.locator('[data-range]');

    // Two runs, one interval apart: the last hour shows each of them; the rollups hold them in
    // one bucket (two if an hour or day began between them).
    await expect
      .poll(async () => Number(await chart.getAttribute('data-points')), { timeout: WAIT_MS })
      .toBeGreaterThanOrEqual(2);
    await expect(chart.getAttribute('data-range')).resolves.toBe('1h');

    for (const range of ['24h', '7d', '30d']) {
      await card.getByText(range, { exact: true }).click();
      await card.locator(`[data-range="${range}"]`).waitFor();
      await expect
        .poll(async () => Number(await chart.getAttribute('data-points')), { timeout: WAIT_MS })
        .toBeGreaterThanOrEqual(1);
    }
    const bars = card.getByTestId('daily-uptime');
    await expect
      .poll(() => bars.getAttribute('aria-label'), { timeout: WAIT_MS })
      .toMatch(/[12] of 90 days measured, lowest 100\.00 %/);
    expect(await bars.locator('[data-uptime="100"]').count()).toBeGreaterThanOrEqual(1);
    await checkScreen(page, 'system-ranges');
  });

  it('a maintenance window edited in the UI is saved with its new title, its times untouched', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'cdn-edge' },
      admin,
    );
    const start = new Date(Date.now() + 2 * 86_400_000);
    const window = await ui.call<{ id: string; startAt: string; endAt: string }>(
      'maintenance',
      'scheduleWindow',
      {
        title: 'Edge upgrade',
        systemIds: [system.id],
        startAt: start.toISOString(),
        endAt: new Date(start.getTime() + 3_600_000).toISOString(),
      },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/maintenance/${window.id}`);
    await page.getByRole('heading', { name: 'Edge upgrade' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = await openedDialog(page, 'Edit the maintenance window');
    await expect(dialog.getByLabel(/^Title/).inputValue()).resolves.toBe('Edge upgrade');
    await checkScreen(page, 'maintenance-edit');
    await dialog.getByLabel(/^Title/).fill('Edge and origin upgrade');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Edge and origin upgrade' }).waitFor();

    const { windows } = await ui.call<{
      windows: { id: string; title: string; startAt: string; endAt: string }[];
    }>('maintenance', 'getWindows', { systemId: system.id }, admin);
    // The times, shown in the pickers in the browser's zone to the second, are saved unchanged.
    expect(windows).toEqual([
      expect.objectContaining({
        id: window.id,
        title: 'Edge and origin upgrade',
        startAt: window.startAt,
        endAt: window.endAt,
      }),
    ]);
  });
});
