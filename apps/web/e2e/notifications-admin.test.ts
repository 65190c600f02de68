import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { checkScreen } from './support/screen.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

/**
 * Channel administration in a real browser: the e-mail strategy's config has a secret (the SMTP
 * password) and its layout a colour, so it shows both marks of the generated forms.
 */
const STRATEGY = 'notification-smtp.smtp';
const PASSWORD = 'smtp-secret-never-shown-4f1c';

interface StrategyView {
  strategyId: string;
  enabled: boolean;
  config: Record<string, unknown> | null;
  configSecrets: Record<string, boolean>;
  layoutConfig: Record<string, unknown> | null;
}

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;

const smtpStrategy = async () => {
  const { strategies } = await ui.call<{ strategies: StrategyView[] }>(
    'notification',
    'getStrategies',
    {},
    admin,
  );
  return strategies.find((strategy) => strategy.strategyId === STRATEGY)!;
};

beforeAll(async () => {
  ({ ui, browser, admin } = await startBrowserSuite());
});
afterAll(() => closeAll(browser, ui));

describe('notification channel administration in a real browser', { timeout: 180_000 }, () => {
  it('keeps the SMTP password secret and refuses an invalid colour in the form and on the server', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Notification channels' })
      .click();
    const card = page.getByRole('region', { name: 'E-mail' });
    await card.waitFor();

    // The setup guide is the strategy's Markdown, rendered.
    await card.getByRole('button', { name: 'Setup guide' }).click();
    await card.getByRole('heading', { name: 'Sending e-mail through SMTP' }).waitFor();
    expect(await card.locator('.markdown strong', { hasText: 'Host' }).count()).toBeGreaterThan(0);

    await card.getByRole('button', { name: 'Settings' }).click();
    await card.getByLabel(/^Host/).fill('localhost');
    await card.getByLabel(/^Port/).fill('2525');
    await card.getByLabel(/^Username/).fill('mailer');
    const password = card.locator('input[name="password"]');
    expect(await password.getAttribute('type')).toBe('password');
    await password.fill(PASSWORD);
    await card.getByLabel(/^From address/).fill('alerts@status.example');
    await card.getByRole('button', { name: 'Save settings' }).click();
    await card.getByText('Set up', { exact: true }).waitFor();

    const stored = await smtpStrategy();
    expect(stored.configSecrets.password).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);

    await page.reload();
    await card.getByRole('button', { name: 'Settings' }).click();
    await card.locator('input[name="password"]').waitFor();
    expect(await card.locator('input[name="password"]').getAttribute('type')).toBe('password');
    expect(await card.locator('input[name="password"]').inputValue()).toBe('');
    expect(await card.getByText('Configured', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.content()).not.toContain(PASSWORD);
    expect(await card.getByLabel(/^Host/).inputValue()).toBe('localhost');
    await checkScreen(page, 'notification-channels');

    // A colour the server would refuse is refused here, before any request.
    await card.getByRole('button', { name: 'Layout' }).click();
    const primary = card.getByLabel(/^Primary color/);
    await primary.fill('not-a-colour');
    await primary.blur();
    await card.getByText('A colour is #rgb or #rrggbb').waitFor();
    await card.getByRole('button', { name: 'Save layout' }).click();
    await card.getByText('Correct the marked fields first.').waitFor();
    expect((await smtpStrategy()).layoutConfig?.primaryColor).not.toBe('not-a-colour');

    // ... and the server refuses it too when sent straight through the API.
    const refused = await fetch(`${ui.url}/api/notification/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...admin },
      body: JSON.stringify({
        updateStrategy: { strategyId: STRATEGY, layoutConfig: { primaryColor: 'not-a-colour' } },
      }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('primaryColor');

    await primary.fill('#123abc');
    await primary.blur();
    await card.getByRole('button', { name: 'Save layout' }).click();
    await expect
      .poll(async () => (await smtpStrategy()).layoutConfig?.primaryColor)
      .toBe('#123abc');

    // Enabled from its switch; the preview is the server's e-mail in a sandboxed frame.
    const enabled = card.getByRole('switch', { name: 'Enable E-mail' });
    expect(await enabled.isChecked()).toBe(false);
    await card.getByText('Enabled', { exact: true }).click();
    await expect.poll(async () => (await smtpStrategy()).enabled).toBe(true);
    await expect.poll(() => enabled.isChecked()).toBe(true);
    await card.getByRole('button', { name: 'Preview e-mail' }).click();
    const frame = page.getByTitle('E-mail preview of E-mail');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('srcdoc')).toContain('#123abc');
    expect(await frame.getAttribute('srcdoc')).toContain('Checkout is down');
    await checkScreen(page, 'notification-email-preview');
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('lists deliveries with filters by channel and status', async () => {
    await ui.call('notification', 'updateStrategy', { strategyId: STRATEGY, enabled: true }, admin);
    // The SMTP server configured above does not exist: the test delivery fails and is logged.
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/admin/notification-channels`);
    const card = page.getByRole('region', { name: 'E-mail' });
    await card.getByRole('button', { name: 'Send a test to me' }).click();
    await card.getByRole('status').waitFor();

    await page.goto(`${ui.url}/admin/deliveries`);
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    const table = page.getByTestId('deliveries');
    await table.waitFor();
    expect(await table.getByText('E-mail').count()).toBeGreaterThan(0);
    // The recipient is the person (the test went to the admin), not their user id.
    const recipients = await table.getByTestId('recipient').allTextContents();
    expect(recipients.length).toBeGreaterThan(0);
    for (const recipient of recipients) expect(recipient).toContain(testAdmin.email);
    // Every status word is shown whole at 1280 px, never cut to "PENDI…".
    const cut = await table
      .locator('[data-delivery-status] .mantine-Badge-label')
      .evaluateAll((labels) =>
        labels
          .filter((label) => label.scrollWidth > label.clientWidth)
          .map((label) => label.textContent),
      );
    expect(cut).toEqual([]);
    await checkScreen(page, 'notification-deliveries');

    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'sent' }).click();
    await page.getByText('No deliveries match.').waitFor();
    await context.close();
  });
});

describe('an OAuth channel on the settings page', { timeout: 120_000 }, () => {
  it('offers to link the account as a navigation to the server', async () => {
    const slack = 'notification-slack.slack';
    await ui.call(
      'notification',
      'updateStrategy',
      {
        strategyId: slack,
        enabled: true,
        config: { clientId: 'client-1', clientSecret: 'client-secret-1' },
      },
      admin,
    );
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/settings/notifications`);
    const card = page.getByRole('region', { name: 'Slack' });
    await card.waitFor();
    await card.getByText('Not linked').waitFor();
    const link = card.getByRole('link', { name: 'Link account' });
    expect(await link.getAttribute('href')).toBe(`/api/notification/oauth/${slack}/auth`);
    await checkScreen(page, 'notification-settings-oauth');
    await context.close();
  });
});
