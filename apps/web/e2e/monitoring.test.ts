import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { checkScreen } from './support/screen.ts';
import { startTarget, type Target } from './support/target.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;
let target: Target;
/** What the loopback target answers: 200 while healthy, 500 once the test makes it fail. */
let targetStatus = 200;

beforeAll(async () => {
  target = await startTarget((_request, response) => {
    response.statusCode = targetStatus;
    response.end(targetStatus === 200 ? 'ok' : 'broken');
  });
  ({ ui, browser, admin } = await startBrowserSuite());
});
afterAll(() => closeAll(browser, ui, target));

/** One interval of the check (the shortest allowed) plus the dashboard's refresh, with margin. */
const STATUS_CHANGE_WAIT_MS = 60_000;

describe('the monitoring screens in a real browser', { timeout: 240_000 }, () => {
  it('a check made in the UI turns the dashboard row unhealthy without a reload', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'checkout-api', tags: ['prod'] },
      admin,
    );
    await ui.call('catalog', 'createSystem', { name: 'quiet-system' }, admin);
    const { page } = await signedInPage(browser, ui.url, testAdmin);

    await page.goto(`${ui.url}/systems/${system.id}`);
    await page.getByRole('heading', { name: 'checkout-api' }).waitFor();
    await page.getByRole('button', { name: 'New check' }).click();
    const dialog = page.getByRole('dialog', { name: 'New check' });
    await dialog.getByLabel(/^Name/).fill('homepage');
    await dialog.getByLabel(/^Interval/).fill('10');
    await dialog.getByRole('textbox', { name: 'Timeout (ms)' }).fill('5000');
    await dialog.getByLabel(/^Url/).fill(target.url);
    await expect
      .poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('1');
    await checkScreen(page, 'check-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const checks = await ui.call<{ healthChecks: { name: string; config: { url: string } }[] }>(
      'healthcheck',
      'getHealthChecks',
      { systemId: system.id },
      admin,
    );
    expect(checks.healthChecks).toMatchObject([{ name: 'homepage', config: { url: target.url } }]);

    await page.goto(`${ui.url}/`);
    const row = page.locator('[data-system="checkout-api"]');
    await row.locator('[data-status="healthy"]').waitFor({ timeout: STATUS_CHANGE_WAIT_MS });
    await expect(page.getByRole('radio', { name: 'healthy 1' }).count()).resolves.toBe(1);
    await checkScreen(page, 'dashboard');

    targetStatus = 500;
    await row.locator('[data-status="unhealthy"]').waitFor({ timeout: STATUS_CHANGE_WAIT_MS });
    await page.getByText('unhealthy 1').waitFor();

    await page.goto(`${ui.url}/operations/scheduler`);
    await page.getByRole('heading', { name: 'Scheduler' }).waitFor();
    // The check has run here, so this process is listed with its runs.
    await page.getByRole('columnheader', { name: 'Process' }).waitFor();
    await checkScreen(page, 'scheduler');
    await page.goto(`${ui.url}/`);

    await page.getByLabel('Search').fill('quiet');
    await row.waitFor({ state: 'detached' });
    await page.locator('[data-system="quiet-system"]').waitFor();
    await page.getByLabel('Search').fill('');

    await row.getByRole('link', { name: 'checkout-api' }).click();
    await page.waitForURL(`${ui.url}/systems/${system.id}`);
    const latest = page.getByTestId('latest-result');
    await latest.getByText(/got 500/).waitFor({ timeout: STATUS_CHANGE_WAIT_MS });
    const dots = page.locator('.recharts-line-dots circle, .recharts-line-dot');
    await dots.first().waitFor();
    expect(await dots.count()).toBeGreaterThanOrEqual(2);
    await checkScreen(page, 'system');
  });

  it('an incident made through the API opens from its link, and a UI update reaches the API', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'payments' },
      admin,
    );
    const incident = await ui.call<{ id: string }>(
      'incident',
      'createIncident',
      { title: 'Card payments failing', severity: 'major', systemIds: [system.id] },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);

    await page.goto(`${ui.url}/`);
    await page
      .getByRole('region', { name: 'Open incidents' })
      .getByRole('link', { name: 'Card payments failing' })
      .waitFor();
    await checkScreen(page, 'dashboard-incident');

    await page.goto(`${ui.url}/incidents`);
    await page.getByRole('link', { name: 'Card payments failing' }).waitFor();
    await checkScreen(page, 'incidents');

    await page.goto(`${ui.url}/incidents/${incident.id}`);
    await page.getByRole('heading', { name: 'Card payments failing' }).waitFor();
    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'identified' }).click();
    await page.getByLabel('Update message').fill('Root cause found in the card gateway');
    await page.getByRole('button', { name: 'Post update' }).click();
    await page.getByText('Root cause found in the card gateway').waitFor();
    await checkScreen(page, 'incident');
    const detail = await ui.call<{
      status: string;
      timeline: { status: string; message: string | null }[];
    }>('incident', 'getIncident', { id: incident.id }, admin);
    expect(detail.status).toBe('identified');
    expect(detail.timeline.at(-1)).toMatchObject({
      status: 'identified',
      message: 'Root cause found in the card gateway',
    });

    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.getByTestId('incident-status').getByText('resolved').waitFor();
    await page.goto(`${ui.url}/incidents`);
    await page.getByText('No incidents.').waitFor();
    await page.getByText('Show resolved incidents').click();
    await page.getByRole('link', { name: 'Card payments failing' }).waitFor();
  });

  it('the links alerts carry open the right pages', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'search-index' },
      admin,
    );
    const incident = await ui.call<{ id: string }>(
      'incident',
      'createIncident',
      { title: 'Search is slow', severity: 'minor', systemIds: [system.id] },
      admin,
    );
    const start = new Date(Date.now() + 3_600_000);
    const window = await ui.call<{ id: string }>(
      'maintenance',
      'scheduleWindow',
      {
        title: 'Reindex',
        systemIds: [system.id],
        startAt: start.toISOString(),
        endAt: new Date(start.getTime() + 3_600_000).toISOString(),
      },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);

    await page.goto(`${ui.url}/systems/${system.id}`);
    await page.getByRole('heading', { name: 'search-index' }).waitFor();
    await page.getByRole('link', { name: 'Search is slow' }).waitFor();
    await page.getByRole('link', { name: 'Reindex' }).waitFor();

    await page.goto(`${ui.url}/incidents/${incident.id}`);
    await page.getByRole('heading', { name: 'Search is slow' }).waitFor();

    await page.goto(`${ui.url}/maintenance/${window.id}`);
    await page.getByRole('heading', { name: 'Reindex' }).waitFor();
    await page.getByText('upcoming').waitFor();
    await checkScreen(page, 'maintenance-window');

    await page.goto(`${ui.url}/maintenance`);
    await page.getByRole('link', { name: 'Reindex' }).waitFor();
    await checkScreen(page, 'maintenance');
    await page.getByRole('button', { name: 'Schedule window' }).click();
    const scheduleDialog = page.getByRole('dialog', { name: 'Schedule a maintenance window' });
    await scheduleDialog.waitFor();
    // axe measures colours as drawn: wait until the dialog has finished fading in.
    await expect
      .poll(() => scheduleDialog.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('1');
    await checkScreen(page, 'maintenance-schedule');
  });

  it('a window scheduled in the UI, in the browser time zone, puts its system in maintenance', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'mail-relay' },
      admin,
    );
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/maintenance`);
    await page.getByRole('button', { name: 'Schedule window' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a maintenance window' });
    await dialog.getByLabel(/^Title/).fill('Relay upgrade');
    await dialog.getByRole('textbox', { name: 'Systems' }).click();
    await page.getByRole('option', { name: 'mail-relay' }).click();
    await page.keyboard.press('Escape');
    const dayLabel = (date: Date) =>
      date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
    const today = new Date();
    const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
    // Today at 00:00 local time has begun, so the window is active at once.
    await dialog.getByRole('button', { name: /^Starts/ }).click();
    await page.getByRole('button', { name: dayLabel(today), exact: true }).click();
    await page.getByRole('button', { name: 'Confirm start' }).click();
    await dialog.getByRole('button', { name: /^Ends/ }).click();
    if (tomorrow.getMonth() !== today.getMonth()) {
      await page.getByRole('button', { name: /next/i }).last().click();
    }
    await page
      .getByRole('button', { name: dayLabel(tomorrow), exact: true })
      .last()
      .click();
    await page.getByRole('button', { name: 'Confirm end' }).click();
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const { windows } = await ui.call<{
      windows: { title: string; startAt: string; endAt: string }[];
    }>('maintenance', 'getWindows', { systemId: system.id }, admin);
    expect(windows).toHaveLength(1);
    const midnight = new Date(today.getFullYear(), today.getMonth(), today.getDate());
    expect(windows[0]).toMatchObject({
      title: 'Relay upgrade',
      startAt: midnight.toISOString(),
      endAt: tomorrow.toISOString(),
    });

    await page.goto(`${ui.url}/`);
    await page
      .locator('[data-system="mail-relay"] [data-status="maintenance"]')
      .waitFor({ timeout: STATUS_CHANGE_WAIT_MS });
  });
});
