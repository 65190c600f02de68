import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { openedDialog } from './support/dialog.ts';
import { checkScreen } from './support/screen.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { createPersonWithRules } from './support/people.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;
const viewer = { email: 'viewer@example.com', password: 'viewer-password-123', name: 'Vic Viewer' };

beforeAll(async () => {
  ({ ui, browser, admin } = await startBrowserSuite());
  await createPersonWithRules(ui, admin, viewer, 'monitoring-readers', [
    'catalog.catalog.read',
    'healthcheck.healthcheck.read',
    'incident.incident.read',
    'maintenance.maintenance.read',
  ]);
});
afterAll(() => closeAll(browser, ui));

const WAIT_MS = 60_000;

interface SystemView {
  id: string;
  name: string;
  owner: string | null;
  tags: string[];
}

describe('catalog administration in a real browser', { timeout: 240_000 }, () => {
  it('creates and edits a system, and a group with its members, through the API', async () => {
    await ui.call('catalog', 'createSystem', { name: 'ledger' }, admin);
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/catalog`);
    await page.locator('[data-system="ledger"]').waitFor();

    await page.getByRole('button', { name: 'New system' }).click();
    let dialog = await openedDialog(page, 'New system');
    await checkScreen(page, 'catalog-system-form');
    await dialog.getByLabel(/^Name/).fill('billing-api');
    await dialog.getByLabel('Tags').fill('prod');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('[data-system="billing-api"]').waitFor();

    await page.getByRole('button', { name: 'Edit billing-api' }).click();
    dialog = await openedDialog(page, 'Edit billing-api');
    await dialog.getByLabel(/^Owner/).fill('payments-team');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'New group' }).click();
    dialog = await openedDialog(page, 'New group');
    await dialog.getByLabel(/^Name/).fill('Finance');
    await dialog.getByRole('textbox', { name: 'Systems' }).click();
    await page.getByRole('option', { name: 'billing-api' }).click();
    await page.getByRole('option', { name: 'ledger' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const financeRow = page.locator('[data-group="Finance"]');
    await expect
      .poll(() => financeRow.textContent(), { timeout: WAIT_MS })
      .toMatch(/billing-api.*ledger|ledger.*billing-api/);

    await page.getByRole('button', { name: 'Edit group Finance' }).click();
    dialog = await openedDialog(page, 'Edit group Finance');
    await dialog.locator('.mantine-Pill-root', { hasText: 'ledger' }).locator('button').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => financeRow.textContent(), { timeout: WAIT_MS }).not.toMatch(/ledger/);
    await checkScreen(page, 'catalog');

    const { systems } = await ui.call<{ systems: SystemView[] }>(
      'catalog',
      'getSystems',
      {},
      admin,
    );
    const billing = systems.find((system) => system.name === 'billing-api');
    expect(billing).toMatchObject({ owner: 'payments-team', tags: ['prod'] });
    const { groups } = await ui.call<{ groups: { name: string; systemIds: string[] }[] }>(
      'catalog',
      'getGroups',
      {},
      admin,
    );
    expect(groups).toEqual([
      expect.objectContaining({ name: 'Finance', systemIds: [billing!.id] }),
    ]);
  });

  it('a system marked team-only in the UI, and its incidents, are nowhere in a non-member’s UI', async () => {
    const vault = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'secret-vault' },
      admin,
    );
    const site = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'public-site' },
      admin,
    );
    await ui.call('auth', 'createTeam', { name: 'vault-keepers' }, admin);
    const hidden = await ui.call<{ id: string }>(
      'incident',
      'createIncident',
      { title: 'Vault keys rotating', severity: 'major', systemIds: [vault.id] },
      admin,
    );
    await ui.call(
      'incident',
      'createIncident',
      { title: 'Site is slow', severity: 'minor', systemIds: [site.id] },
      admin,
    );

    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/catalog`);
    await page.getByRole('button', { name: 'Access to secret-vault' }).click();
    const dialog = await openedDialog(page, 'Access to secret-vault');
    await dialog.getByText('Team-only').click();
    await dialog.getByRole('textbox', { name: 'Grant a team' }).click();
    await page.getByRole('option', { name: 'vault-keepers' }).click();
    await dialog.getByRole('button', { name: 'Add grant' }).click();
    await dialog.getByRole('button', { name: 'Save access' }).click();
    await dialog.getByRole('status').getByText('Saved.').waitFor();
    await checkScreen(page, 'catalog-access');
    const access = await ui.call<{ teamOnly: boolean; grants: unknown[] }>(
      'auth',
      'getResourceAccess',
      { resourceType: 'catalog.system', resourceId: vault.id },
      admin,
    );
    expect(access).toMatchObject({ teamOnly: true, grants: [expect.anything()] });

    const asViewer = (await signedInPage(browser, ui.url, viewer)).page;
    await asViewer.goto(`${ui.url}/`);
    await asViewer.locator('[data-system="public-site"]').waitFor({ timeout: WAIT_MS });
    const incidents = asViewer.getByRole('region', { name: 'Open incidents' });
    await incidents.getByRole('link', { name: 'Site is slow' }).waitFor();
    expect(await asViewer.locator('[data-system="secret-vault"]').count()).toBe(0);
    expect(await incidents.getByText('Vault keys rotating').count()).toBe(0);
    await asViewer.getByLabel('Search').fill('secret');
    await asViewer.getByText('No system matches.').waitFor();

    await asViewer.goto(`${ui.url}/incidents`);
    await asViewer.getByRole('link', { name: 'Site is slow' }).waitFor();
    await asViewer.getByText('Show resolved incidents').click();
    await asViewer.getByRole('link', { name: 'Site is slow' }).waitFor();
    expect(await asViewer.getByText('Vault keys rotating').count()).toBe(0);

    await asViewer.goto(`${ui.url}/incidents/${hidden.id}`);
    await asViewer.getByRole('alert').waitFor({ timeout: WAIT_MS });
    expect(await asViewer.getByText('Vault keys rotating').count()).toBe(0);

    await asViewer.goto(`${ui.url}/systems/${vault.id}`);
    await asViewer.getByRole('alert').waitFor({ timeout: WAIT_MS });
    expect(await asViewer.getByText('secret-vault').count()).toBe(0);

    await asViewer.goto(`${ui.url}/systems/${site.id}`);
    await asViewer.getByRole('heading', { name: 'public-site' }).waitFor();
    expect(await asViewer.getByText('Vault keys rotating').count()).toBe(0);
  });
});
