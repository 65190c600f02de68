import {
  startSmtpTestServer,
  unsubscribeHeadersOf,
  type SmtpTestServer,
} from '@checkline/notification-smtp/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { checkScreen } from './support/screen.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { enableSmtpChannel, SMTP_STRATEGY } from './support/mail.ts';
import { type UiServer } from './support/ui-server.ts';

/**
 * A person's side of notifications in a real browser: the inbox and its badge kept current by
 * the event stream, and a real e-mail's unsubscribe link confirmed on the settings page.
 */
const STRATEGY = SMTP_STRATEGY;
const person = { email: 'reader@example.com', password: 'a-long-enough-password-42' };

let ui: UiServer;
let browser: Browser;
let smtp: SmtpTestServer;
let admin: Record<string, string>;
let sender: Record<string, string>;
let personId: string;

interface Channel {
  strategyId: string;
  enabled: boolean;
}

const myChannel = async () => {
  const headers = await ui.sessionOf(person.email, person.password);
  const { channels } = await ui.call<{ channels: Channel[] }>(
    'notification',
    'getMyChannels',
    {},
    headers,
  );
  return channels.find((channel) => channel.strategyId === STRATEGY);
};

const badgeOf = (page: Page, count: number) =>
  page.getByRole('link', {
    name: count === 1 ? 'Inbox, 1 unread notification' : `Inbox, ${count} unread notifications`,
    exact: true,
  });

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  ({ ui, browser, admin } = await startBrowserSuite());
  const senders = await ui.call<{ id: string }>(
    'auth',
    'createRole',
    { name: 'senders', accessRules: ['notification.notification.send'] },
    admin,
  );
  const readers = await ui.call<{ id: string }>(
    'auth',
    'createRole',
    { name: 'mail-readers', accessRules: ['notification-smtp.strategy.smtp.use'] },
    admin,
  );
  const { application, secret } = await ui.call<{ application: { id: string }; secret: string }>(
    'auth',
    'createApplication',
    { name: 'alerting' },
    admin,
  );
  await ui.call('auth', 'updateApplication', { id: application.id, roleIds: [senders.id] }, admin);
  sender = { authorization: `Bearer ${secret}` };
  const user = await ui.call<{ id: string }>(
    'auth',
    'createUser',
    { ...person, name: 'Reader', roleIds: [readers.id] },
    admin,
  );
  personId = user.id;
});
afterAll(() => closeAll(browser, ui, smtp));

describe('the inbox and e-mail unsubscribe in a real browser', { timeout: 180_000 }, () => {
  it('shows a notification sent through the API in open tabs without a reload, with the badge counting it', async () => {
    const { context, page: inbox } = await signedInPage(browser, ui.url, person);
    const other = await context.newPage();
    await inbox.goto(`${ui.url}/notifications`);
    await other.goto(`${ui.url}/settings/notifications`);
    await inbox.getByText('No notifications yet.').waitFor();
    await badgeOf(inbox, 0).waitFor();
    await badgeOf(other, 0).waitFor();
    await checkScreen(inbox, 'inbox-empty');
    // A mark that a reload would lose.
    await inbox.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });

    await ui.call(
      'notification',
      'notifyUsers',
      {
        userIds: [personId],
        notification: {
          title: 'Disk almost full',
          body: '**92%** used on db-1 <img src=x onerror="window.hacked=1">',
          importance: 'warning',
          type: 'healthcheck.disk',
          action: { label: 'Open db-1', url: '/systems/db-1' },
        },
      },
      sender,
    );

    const item = inbox.getByRole('article', { name: 'Disk almost full' });
    await item.waitFor();
    await badgeOf(inbox, 1).waitFor();
    await badgeOf(other, 1).waitFor();
    expect(
      await inbox.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere),
    ).toBe(true);
    // The body is text: the markup in it is shown, not run.
    expect(await item.textContent()).toContain('<img src=x onerror="window.hacked=1">');
    expect(await item.locator('img').count()).toBe(0);
    expect(await inbox.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBe(
      undefined,
    );
    expect(await item.getByText('Unread', { exact: true }).count()).toBe(1);
    await checkScreen(inbox, 'inbox');

    // The item shows itself read at once, while the server's answer is still held back; the
    // count is the server's and follows it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await inbox.route('**/api/notification/markAsRead', async (route) => {
      await held;
      await route.continue();
    });
    await item.getByRole('button', { name: 'Mark read: Disk almost full' }).click();
    await item.getByText('Unread', { exact: true }).waitFor({ state: 'detached' });
    expect(await badgeOf(inbox, 1).count()).toBe(1);
    release();
    await badgeOf(other, 0).waitFor();
    await badgeOf(inbox, 0).waitFor();
    expect(await item.getByText('Unread', { exact: true }).count()).toBe(0);
    await inbox.unrouteAll();

    await item.getByRole('button', { name: 'Delete: Disk almost full' }).click();
    const confirm = inbox.getByRole('dialog', { name: 'Delete this notification?' });
    await confirm.waitFor();
    await checkScreen(inbox, 'inbox-delete');
    await confirm.getByRole('button', { name: 'Delete notification' }).click();
    await inbox.getByText('No notifications yet.').waitFor();
    await context.close();
  });

  it('confirms the unsubscribe link of a real e-mail and switches the channel off', async () => {
    await enableSmtpChannel(ui, admin, smtp, 'alerts@status.example');
    expect((await myChannel())?.enabled).toBe(true);
    await ui.call(
      'notification',
      'sendExternal',
      {
        userIds: [personId],
        strategyId: STRATEGY,
        notification: {
          title: 'Checkout is down',
          description: 'Since 12:00.',
          importance: 'critical',
          type: 'healthcheck.status_changed',
        },
      },
      sender,
    );
    const [mail] = await smtp.waitFor(1, 30_000);
    expect(mail!.recipients).toEqual([person.email]);
    const { url } = unsubscribeHeadersOf(mail!.mail);
    expect(url?.startsWith(`${ui.url}/api/notification/unsubscribe/`)).toBe(true);

    const { context, page } = await signedInPage(browser, ui.url, person);
    await page.goto(url!);
    expect(new URL(page.url()).pathname).toBe('/settings/notifications');
    const question = page.getByRole('heading', { name: 'Unsubscribe from these e-mails?' });
    await question.waitFor();
    const channelSwitch = page.getByRole('switch', { name: 'Receive notifications by E-mail' });
    await channelSwitch.waitFor({ state: 'attached' });
    expect(await channelSwitch.isChecked()).toBe(true);
    // Opening the link changed nothing: only the confirmation does.
    expect((await myChannel())?.enabled).toBe(true);
    await checkScreen(page, 'notification-unsubscribe');

    await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await page
      .getByText('Unsubscribed: you will no longer receive notifications by E-mail.')
      .waitFor();
    expect((await myChannel())?.enabled).toBe(false);
    await expect.poll(() => channelSwitch.isChecked()).toBe(false);
    await checkScreen(page, 'notification-settings');
    await context.close();
  });

  it('says when an unsubscribe link is not valid, and confirms a linked account by name', async () => {
    const { context, page } = await signedInPage(browser, ui.url, person);
    await page.goto(`${ui.url}/api/notification/unsubscribe/not-a-token`);
    await page.getByText('This unsubscribe link does not work').waitFor();
    expect(new URL(page.url()).searchParams.get('unsubscribe')).toBe('invalid');

    await page.goto(`${ui.url}/settings/notifications?linked=${STRATEGY}`);
    await page
      .getByText('Your account is linked: notifications can now reach you by E-mail.')
      .waitFor();
    await checkScreen(page, 'notification-linked');
    await context.close();
  });
});
