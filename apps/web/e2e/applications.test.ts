import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { checkScreen } from './support/screen.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;

beforeAll(async () => {
  ({ ui, browser, admin } = await startBrowserSuite());
  await ui.call(
    'auth',
    'createRole',
    { name: 'catalog-readers', accessRules: ['catalog.catalog.read'] },
    admin,
  );
});
afterAll(() => closeAll(browser, ui));

/** What a call with the key answers: the status of reading the catalog. */
async function catalogStatusWith(key: string): Promise<number> {
  const response = await fetch(`${ui.url}/api/catalog/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: '{"getSystems":{}}',
  });
  await response.body?.cancel();
  return response.status;
}

describe('the applications screen in a real browser', { timeout: 120_000 }, () => {
  it('creates a key shown once, grants it a role by a checkbox, and rotates it', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Applications' })
      .click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await page.getByText('No applications yet').waitFor();
    await checkScreen(page, 'applications-empty');

    await page.getByRole('button', { name: 'New application' }).click();
    const dialog = page.getByRole('dialog', { name: 'New application' });
    await dialog.getByLabel(/^Name/).fill('deploy-bot');
    await dialog.getByLabel('Description').fill('Reads the catalog when deploying');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const secretDialog = page.getByRole('dialog', { name: "The application's key" });
    await secretDialog.waitFor();
    expect(await secretDialog.textContent()).toContain('shown only once');
    const key = (await page.getByTestId('new-secret').textContent()) ?? '';
    expect(key).toMatch(/^ck_[0-9a-f-]{36}_[A-Za-z0-9]{32,}$/);
    await checkScreen(page, 'application-secret');
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'detached' });
    expect(await page.getByText(key).count()).toBe(0);

    // The key works, but holds no rule yet.
    expect(await catalogStatusWith(key)).toBe(403);
    const role = page.getByRole('checkbox', { name: 'Role catalog-readers for deploy-bot' });
    // The box follows the server's answer, so a click, then the state it settles in.
    await role.click();
    await expect.poll(() => role.isChecked()).toBe(true);
    await expect.poll(() => catalogStatusWith(key), { timeout: 10_000 }).toBe(200);
    await page.reload();
    await role.waitFor();
    expect(await role.isChecked()).toBe(true);
    await checkScreen(page, 'applications');

    await page.getByRole('button', { name: 'Actions for deploy-bot' }).click();
    await page.getByRole('menuitem', { name: 'Rotate key' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the key of deploy-bot' });
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    const newSecret = page.getByRole('dialog', { name: 'The new key' });
    await newSecret.waitFor();
    const rotated = (await page.getByTestId('new-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^ck_/);
    expect(rotated).not.toBe(key);
    await newSecret.getByRole('button', { name: 'Done' }).click();
    expect(await catalogStatusWith(key)).toBe(401);
    expect(await catalogStatusWith(rotated)).toBe(200);

    await page.getByRole('button', { name: 'Actions for deploy-bot' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete deploy-bot?' });
    await confirm.waitFor();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await checkScreen(page, 'application-delete');
    await confirm.getByRole('button', { name: 'Delete application' }).click();
    await page.getByText('No applications yet').waitFor();
    expect(await catalogStatusWith(rotated)).toBe(401);
    await context.close();
  });

  it('hides the screen from a person without auth.applications.manage', async () => {
    const person = { email: 'viewer@example.com', password: 'a-long-enough-password-42' };
    await ui.call('auth', 'createUser', { ...person, name: 'Viewer' }, admin);
    const { context, page } = await signedInPage(browser, ui.url, person);
    await page.goto(`${ui.url}/overview`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Applications' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Applications' }).count()).toBe(0);

    await page.goto(`${ui.url}/applications`);
    await page.getByText('Your account may not open this page.').waitFor();
    expect(await page.getByRole('button', { name: 'New application' }).count()).toBe(0);
    await checkScreen(page, 'applications-refused');
    await context.close();
  });
});
