import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { openedDialog } from './support/dialog.ts';
import { createPersonWithRules } from './support/people.ts';
import { checkScreen } from './support/screen.ts';
import { createHttpCheck, startTarget, type Target } from './support/target.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;
let target: Target;
let failing: Target;
const reader = { email: 'reader@example.com', password: 'reader-password-123', name: 'Rae Reader' };

beforeAll(async () => {
  target = await startTarget((_request, response) => response.end('ok'));
  failing = await startTarget((_request, response) => response.writeHead(500).end('down'));
  ({ ui, browser, admin } = await startBrowserSuite());
  // May read the monitoring screens, not subscribe.
  await createPersonWithRules(ui, admin, reader, 'readers', [
    'catalog.catalog.read',
    'healthcheck.healthcheck.read',
  ]);
});
afterAll(() => closeAll(browser, ui, target, failing));

const WAIT_MS = 60_000;

/** Polls (bounded) until `found` answers something. */
async function eventually<T>(what: string, found: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the monitoring screens in detail', { timeout: 240_000 }, () => {
  it('follows a system from its page: its alerts reach the inbox, settings list it (and a group) by name, unfollow ends it', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'billing-api' },
      admin,
    );
    const mine = async () =>
      (
        await ui.call<{ subscriptions: { id: string; events: string[] }[] }>(
          'notification',
          'getMySubscriptions',
          { systemId: system.id },
          admin,
        )
      ).subscriptions;
    const { page } = await signedInPage(browser, ui.url, testAdmin);

    await page.goto(`${ui.url}/systems/${system.id}`);
    await page.getByRole('button', { name: 'Follow billing-api', exact: true }).click();
    await page.getByRole('button', { name: 'Unfollow billing-api' }).waitFor();
    const [subscription] = await mine();
    expect(subscription?.events.sort()).toEqual(['health', 'incident', 'maintenance']);
    await checkScreen(page, 'system-following');

    // Checked once followed (a run at creation, or the one asked for below, turns it unhealthy).
    const checkId = await createHttpCheck(ui, admin, {
      systemId: system.id,
      name: 'front',
      url: failing.url,
    });
    await ui.call('healthcheck', 'runHealthCheck', { id: checkId }, admin);
    await eventually('the alert in the inbox', async () => {
      const { notifications } = await ui.call<{ notifications: { title: string }[] }>(
        'notification',
        'getNotifications',
        {},
        admin,
      );
      return notifications.find((item) => item.title === 'Now unhealthy: billing-api');
    });

    const group = await ui.call<{ id: string }>(
      'catalog',
      'createGroup',
      { name: 'Billing' },
      admin,
    );
    await ui.call('notification', 'createSubscription', { groupId: group.id }, admin);
    await page.goto(`${ui.url}/settings/notifications`);
    const subscriptions = page.getByRole('region', { name: 'My subscriptions' });
    const listed = subscriptions.getByRole('link', { name: 'System billing-api' });
    await listed.waitFor();
    await subscriptions.getByText('Group Billing', { exact: true }).waitFor();
    await checkScreen(page, 'subscriptions-by-name');
    expect(await listed.getAttribute('href')).toBe(`/systems/${system.id}`);

    // The list's delete names what it ends, as the row shows it, and asks first.
    await subscriptions
      .getByRole('button', { name: 'Delete the subscription to Group Billing', exact: true })
      .click();
    const confirm = await openedDialog(page, 'End the subscription to Group Billing?');
    await checkScreen(page, 'subscription-delete');
    await confirm.getByRole('button', { name: 'End subscription' }).click();
    await subscriptions.getByText('Group Billing', { exact: true }).waitFor({ state: 'detached' });
    const left = await ui.call<{ subscriptions: { groupId: string | null }[] }>(
      'notification',
      'getMySubscriptions',
      {},
      admin,
    );
    expect(left.subscriptions.filter((each) => each.groupId === group.id)).toEqual([]);

    await listed.click();
    await page.getByRole('button', { name: 'Unfollow billing-api' }).click();
    await page.getByRole('button', { name: 'Follow billing-api', exact: true }).waitFor();
    expect(await mine()).toEqual([]);

    // Someone who may read the system but not subscribe is not offered to follow it.
    const { page: asReader } = await signedInPage(browser, ui.url, reader);
    await asReader.goto(`${ui.url}/systems/${system.id}`);
    await asReader.getByRole('heading', { name: 'Checks' }).waitFor();
    await asReader.getByRole('navigation', { name: 'Main' }).getByRole('link').first().waitFor();
    expect(await asReader.getByRole('button', { name: /Follow/ }).count()).toBe(0);
  });

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
