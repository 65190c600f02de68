import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, signedInPage } from './support/browser.ts';
import { checkScreen } from './support/screen.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let admin: Record<string, string>;
let systemId: string;

const password = 'a-long-enough-password-42';
const person = (handle: string, name: string) => ({
  email: `${handle}@example.com`,
  password,
  name,
});
const auditor = person('auditor', 'Ada Auditor');
const member = person('member', 'Mia Member');
const lead = person('lead', 'Leo Lead');
const outsider = person('outsider', 'Otto Outsider');
const viewer = person('viewer', 'Vic Viewer');

interface Role {
  id: string;
  name: string;
}

beforeAll(async () => {
  ({ ui, browser, admin } = await startBrowserSuite());
  const { roles } = await ui.call<{ roles: Role[] }>('auth', 'getRoles', { limit: 100 }, admin);
  const usersRole = roles.find((role) => role.name === 'users')!;
  const readers = await ui.call<Role>(
    'auth',
    'createRole',
    { name: 'catalog-readers', accessRules: ['catalog.catalog.read'] },
    admin,
  );
  for (const who of [auditor, member, lead, outsider, viewer]) {
    await ui.call('auth', 'createUser', { ...who, roleIds: [usersRole.id, readers.id] }, admin);
  }
  const system = await ui.call<{ id: string }>(
    'catalog',
    'createSystem',
    { name: 'payments' },
    admin,
  );
  systemId = system.id;
});
afterAll(() => closeAll(browser, ui));

/** Picks an option of a Mantine select (a combobox, or a textbox when searchable). */
async function pick(page: Page, scope: Locator | Page, label: RegExp, option: string) {
  await scope
    .getByRole('textbox', { name: label })
    .or(scope.getByRole('combobox', { name: label }))
    .click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openFromNav(page: Page, label: string) {
  await page.goto(`${ui.url}/`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
}

/** Names of the catalog systems a person sees through the API with their own session. */
async function systemsSeenBy(who: { email: string; password: string }): Promise<string[]> {
  const session = await ui.sessionOf(who.email, who.password);
  const { systems } = await ui.call<{ systems: { name: string }[] }>(
    'catalog',
    'getSystems',
    {},
    session,
  );
  return systems.map((system) => system.name);
}

describe('the administration screens in a real browser', { timeout: 180_000 }, () => {
  it('makes a role from grouped rule checkboxes; given to a user, it opens the screen its rule allows', async () => {
    const asAuditor = await signedInPage(browser, ui.url, auditor);
    await asAuditor.page.goto(`${ui.url}/audit`);
    await asAuditor.page.getByText('Your account may not open this page.').waitFor();
    const auditorNav = asAuditor.page.getByRole('navigation', { name: 'Main' });
    expect(await auditorNav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);

    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await openFromNav(page, 'Roles');
    await page.getByRole('heading', { name: 'Roles' }).waitFor();
    await page.getByTestId('role-catalog-readers').waitFor();
    await page.getByRole('button', { name: 'New role' }).click();
    const editor = page.getByRole('dialog', { name: 'New role' });
    await editor.getByLabel(/^Name/).fill('auditors');
    const authRules = editor.getByRole('group', { name: 'auth' });
    await authRules.getByText('Read the audit log').waitFor();
    // Rules made at start-up (each strategy's `.use`) are listed beside the static ones.
    const strategyRules = await editor
      .getByRole('checkbox', { name: /\.strategy\.[a-z0-9-]+\.use$/ })
      .count();
    expect(strategyRules).toBeGreaterThan(0);
    await authRules.getByRole('checkbox', { name: 'auth.audit.read', exact: true }).check();
    await checkScreen(page, 'role-editor');
    await editor.getByRole('button', { name: 'Create role' }).click();
    await editor.waitFor({ state: 'detached' });
    await page.getByTestId('role-auditors').getByText('1 rules').waitFor();
    await checkScreen(page, 'roles');

    await page.setViewportSize({ width: 1280, height: 900 });
    await openFromNav(page, 'Users');
    await page.getByRole('button', { name: `Actions for ${auditor.email}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const userEditor = page.getByRole('dialog', { name: `Edit ${auditor.email}` });
    await userEditor.getByRole('checkbox', { name: 'auditors', exact: true }).check();
    await userEditor.getByRole('button', { name: 'Save user' }).click();
    await userEditor.waitFor({ state: 'detached' });
    await page.getByTestId(`user-${auditor.email}`).getByText('auditors').waitFor();

    await asAuditor.page.goto(`${ui.url}/`);
    await auditorNav.getByRole('link', { name: 'Audit log' }).click();
    await asAuditor.page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await asAuditor.page.getByTestId('audit-entry').first().waitFor();
    expect(await asAuditor.page.getByText('Your account may not open this page.').count()).toBe(0);
    await asAuditor.context.close();
    await context.close();
  });

  it('creates a user, asks before deleting one, and the deleted user cannot sign in', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await openFromNav(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();
    const editor = page.getByRole('dialog', { name: 'New user' });
    await editor.getByLabel(/^E-mail/).fill('short-lived@example.com');
    await editor.getByLabel(/^Name/).fill('Short Lived');
    await editor.getByLabel(/^Password/).fill('short');
    await editor.getByRole('button', { name: 'Create user' }).click();
    // The server's own message, beside the field it is about.
    await editor.getByText('The password must have at least 12 characters').waitFor();
    await checkScreen(page, 'user-editor');
    await page.setViewportSize({ width: 1280, height: 900 });
    await editor.getByLabel(/^Password/).fill(password);
    await editor.getByRole('button', { name: 'Create user' }).click();
    await editor.waitFor({ state: 'detached' });
    await page.getByTestId('user-short-lived@example.com').waitFor();
    await ui.sessionOf('short-lived@example.com', password);

    await page.getByRole('button', { name: 'Actions for short-lived@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete short-lived@example.com?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await ui.sessionOf('short-lived@example.com', password);

    await page.getByRole('button', { name: 'Actions for short-lived@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await confirm.waitFor();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await checkScreen(page, 'user-delete');
    await confirm.getByRole('button', { name: 'Delete user' }).click();
    await page.getByTestId('user-short-lived@example.com').waitFor({ state: 'detached' });
    await expect(ui.sessionOf('short-lived@example.com', password)).rejects.toThrow();
    await checkScreen(page, 'users');
    await context.close();
  });

  it('switches registration on and off, and the sign-up page says so', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await openFromNav(page, 'Users');
    const allow = page.getByRole('switch', { name: 'Allow sign-up' });
    // The switch's input is drawn as its track; a person clicks the label.
    const allowLabel = page.getByText('Allow sign-up', { exact: true });
    await expect.poll(() => allow.isEnabled()).toBe(true);
    expect(await allow.isChecked()).toBe(false);
    await allowLabel.click();
    await expect
      .poll(() => ui.call('auth', 'getRegistrationStatus', {}, {}))
      .toEqual({ allowRegistration: true });
    const visitor = await newPage(browser);
    await visitor.page.goto(`${ui.url}/sign-up`);
    await visitor.page.getByLabel(/^E-mail/).waitFor();

    await allowLabel.click();
    await expect
      .poll(() => ui.call('auth', 'getRegistrationStatus', {}, {}))
      .toEqual({ allowRegistration: false });
    await visitor.page.reload();
    await visitor.page.getByText('Sign-up is switched off').waitFor();
    expect(await visitor.page.getByLabel(/^E-mail/).count()).toBe(0);
    await checkScreen(visitor.page, 'sign-up-off');
    await visitor.context.close();
    await context.close();
  });

  it('makes a team with a member and a manager, grants it a system team-only, and only the team sees it', async () => {
    expect(await systemsSeenBy(outsider)).toContain('payments');
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await openFromNav(page, 'Teams');
    await page.getByText('No teams yet.').waitFor();
    await checkScreen(page, 'teams-empty');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'New team' }).click();
    const editor = page.getByRole('dialog', { name: 'New team' });
    await editor.getByLabel(/^Name/).fill('Payments team');
    await editor.getByRole('button', { name: 'Create team' }).click();
    const card = page.getByTestId('team-Payments team');
    await card.getByText('No members yet.').waitFor();

    for (const [who, manager] of [
      [member, false],
      [lead, true],
    ] as const) {
      await card.getByRole('button', { name: 'Add member' }).click();
      const add = page.getByRole('dialog', { name: 'Add a member to Payments team' });
      await pick(page, add, /^User/, who.email);
      if (manager) await add.getByRole('checkbox', { name: /^Manager/ }).check();
      await add.getByRole('button', { name: 'Add member' }).click();
      await add.waitFor({ state: 'detached' });
      await card.locator('tr', { hasText: who.name }).waitFor();
    }
    await card.locator('tr', { hasText: lead.name }).getByText('manager').waitFor();
    expect(await card.locator('tr', { hasText: member.name }).getByText('manager').count()).toBe(0);

    await pick(page, page, /^System/, 'payments');
    await page.getByText('Team-only', { exact: true }).click();
    expect(await page.getByRole('switch', { name: /Team-only/ }).isChecked()).toBe(true);
    await pick(page, page, /^Grant a team/, 'Payments team');
    await page.getByRole('button', { name: 'Add grant' }).click();
    await page.getByRole('button', { name: 'Save access' }).click();
    await page.getByRole('status').getByText('Saved.').waitFor();
    await checkScreen(page, 'teams');

    const access = await ui.call<{ teamOnly: boolean; grants: { access: string }[] }>(
      'auth',
      'getResourceAccess',
      { resourceType: 'catalog.system', resourceId: systemId },
      admin,
    );
    expect(access).toMatchObject({ teamOnly: true, grants: [{ access: 'read' }] });
    expect(await systemsSeenBy(member)).toContain('payments');
    expect(await systemsSeenBy(outsider)).not.toContain('payments');

    // The manager may change the team without auth.teams.manage; a plain member may not.
    const asLead = await signedInPage(browser, ui.url, lead);
    await asLead.page.goto(`${ui.url}/teams`);
    const leadCard = asLead.page.getByTestId('team-Payments team');
    await leadCard.getByRole('button', { name: 'Add member' }).waitFor();
    expect(await asLead.page.getByRole('button', { name: 'New team' }).count()).toBe(0);
    expect(await asLead.page.getByText('Resource access').count()).toBe(0);
    await checkScreen(asLead.page, 'teams-manager');
    const asMember = await signedInPage(browser, ui.url, member);
    await asMember.page.goto(`${ui.url}/teams`);
    await asMember.page
      .getByTestId('team-Payments team')
      .getByText(`${member.name} (you)`)
      .waitFor();
    expect(await asMember.page.getByRole('button', { name: 'Add member' }).count()).toBe(0);
    await asLead.context.close();
    await asMember.context.close();

    // Taken out of the team (after confirming), the member no longer reaches the system.
    await page.setViewportSize({ width: 1280, height: 900 });
    await card
      .getByRole('button', { name: `Actions for member ${member.name} of Payments team` })
      .click();
    await page.getByRole('menuitem', { name: 'Remove from team' }).click();
    const confirm = page.getByRole('dialog', { name: `Remove ${member.name} from Payments team?` });
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await card.locator('tr', { hasText: member.name }).waitFor({ state: 'detached' });
    expect(await systemsSeenBy(member)).not.toContain('payments');
    await context.close();
  });

  it('the audit log shows those actions and filters them by action and by actor', async () => {
    const { context, page } = await signedInPage(browser, ui.url, testAdmin);
    await openFromNav(page, 'Audit log');
    const entries = page.getByTestId('audit-entry');
    await entries.first().waitFor();
    const actions = await page.locator('[data-testid="audit-entry"] code').allTextContents();
    for (const action of [
      'role.created',
      'user.roles_changed',
      'user.created',
      'user.deleted',
      'registration.changed',
      'team.created',
      'team.member_added',
      'resource.access_changed',
      'team.member_removed',
    ]) {
      expect(actions).toContain(action);
    }
    await checkScreen(page, 'audit');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByLabel('Action').fill('team.member_added');
    await expect
      .poll(() => page.locator('[data-testid="audit-entry"] code').allTextContents())
      .toEqual(['team.member_added', 'team.member_added']);
    await page.getByLabel('Action').fill('');

    await pick(page, page, /^Actor/, auditor.email);
    await page.getByText('No entries match.').waitFor();
    await pick(page, page, /^Actor/, testAdmin.email);
    await expect
      .poll(
        async () =>
          new Set(
            await page.locator('[data-testid="audit-entry"] td:nth-child(2)').allTextContents(),
          ),
      )
      .toEqual(new Set([`${testAdmin.email}user`]));
    await context.close();
  });

  it('a person without the rules sees none of these screens and is refused on a direct URL', async () => {
    const { context, page } = await signedInPage(browser, ui.url, viewer);
    await page.goto(`${ui.url}/overview`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Users', 'Roles', 'Teams', 'Audit log']) {
      expect(await nav.getByRole('link', { name: label }).count()).toBe(0);
    }
    for (const path of ['/users', '/roles', '/teams', '/audit']) {
      await page.goto(`${ui.url}${path}`);
      await page.getByText('Your account may not open this page.').waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
    }
    await checkScreen(page, 'admin-refused');
    await context.close();
  });
});
