import { startSmtpTestServer, type SmtpTestServer } from '@checkline/notification-smtp/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, signedInPage } from './support/browser.ts';
import { openedDialog } from './support/dialog.ts';
import { checkScreen } from './support/screen.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { createPersonWithRules } from './support/people.ts';
import { enableSmtpChannel, firstMail } from './support/mail.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

/**
 * Issue 23, subscribing in the UI: a visitor subscribes from the public page (no cookie sent),
 * confirms through the link mailed to a real SMTP server, and the page's admin sees the
 * subscriber as confirmed in the editor and removes one.
 */
let ui: UiServer;
let browser: Browser;
let smtp: SmtpTestServer;
let admin: Record<string, string>;
let pageId: string;

const WAIT_MS = 60_000;
/** The server's default `STATUSPAGE_SUBSCRIBES_PER_ADDRESS`: requests per address per hour. */
const PER_ADDRESS = 5;
const NEUTRAL = 'Check your inbox to confirm.';

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  ({ ui, browser, admin } = await startBrowserSuite());
  await enableSmtpChannel(ui, admin, smtp, 'status@status.example');
  const system = await ui.call<{ id: string }>('catalog', 'createSystem', { name: 'api' }, admin);
  const page = await ui.call<{ id: string }>(
    'statuspage',
    'createPage',
    {
      slug: 'acme',
      title: 'Acme status',
      sections: [
        { title: 'Core', items: [{ kind: 'system', systemId: system.id, displayName: 'API' }] },
      ],
    },
    admin,
  );
  await ui.call('statuspage', 'publishPage', { id: page.id }, admin);
  pageId = page.id;
});
afterAll(() => closeAll(browser, ui, smtp));

/** The first mail to `address` whose subject matches, waiting (bounded) for it. */
const mailTo = (address: string, subject: string) =>
  firstMail(
    smtp,
    (message) => message.recipients.includes(address) && message.mail.subject === subject,
    { timeout: WAIT_MS, interval: 100 },
  );

/** The addresses the subscribers table lists once the filter `label` is picked. */
async function subscribersFiltered(subscribers: Locator, label: string) {
  await subscribers
    .locator('label')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .click();
  return () =>
    subscribers
      .locator('[data-subscriber]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-subscriber')));
}

/** Every request the page sends to the server's API, with its cookie (if any). */
function recordApiRequests(page: Page) {
  const requests: { method: string; path: string; cookie: string | undefined }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) {
      requests.push({
        method: request.method(),
        path: url.pathname,
        cookie: request.headers().cookie,
      });
    }
  });
  return requests;
}

const isSubscribe = (response: { url(): string; request(): { method(): string } }) =>
  response.url().endsWith('/api/statuspage/public/acme/subscribe') &&
  response.request().method() === 'POST';

/** Types `email` into the form and submits it, answering the route's HTTP status. */
async function submit(page: Page, email: string): Promise<number> {
  const form = page.getByRole('region', { name: 'Get e-mail updates' });
  await form.getByLabel(/^E-mail address/).fill(email);
  const [response] = await Promise.all([
    page.waitForResponse(isSubscribe, { timeout: WAIT_MS }),
    form.getByRole('button', { name: 'Subscribe' }).click(),
  ]);
  return response.status();
}

describe('subscribing to a status page in a real browser', { timeout: 240_000 }, () => {
  it('an anonymous visitor subscribes, confirms through the mailed link, and the admin sees it', async () => {
    const { context, page } = await newPage(browser);
    const requests = recordApiRequests(page);
    await page.goto(`${ui.url}/status/acme`);
    const form = page.getByRole('region', { name: 'Get e-mail updates' });
    await form.waitFor({ timeout: WAIT_MS });
    const status = form.getByRole('status');

    // A malformed address is refused beside the field; nothing is sent.
    await form.getByLabel(/^E-mail address/).fill('not-an-address');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByText('An e-mail address such as you@example.com').waitFor();
    expect(await form.getByLabel(/^E-mail address/).getAttribute('aria-invalid')).toBe('true');
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
    await checkScreen(page, 'status-page-subscribe-invalid');
    await page.setViewportSize({ width: 1280, height: 900 });

    const email = 'visitor@example.net';
    expect(await submit(page, email)).toBe(202);
    await status.getByText(NEUTRAL).waitFor();
    expect(await form.getByLabel(/^E-mail address/).getAttribute('aria-invalid')).not.toBe('true');
    await checkScreen(page, 'status-page-subscribe');

    const mail = await mailTo(email, 'Confirm your subscription to Acme status');
    const link = new RegExp(`${ui.url}/api/statuspage/subscriptions/confirm/[A-Za-z0-9_.-]+`).exec(
      mail.mail.text ?? '',
    )?.[0];
    expect(link).toBeDefined();
    // Opening the link changes nothing (mail scanners open links); its button confirms.
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Confirm your subscription' }).waitFor();
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.getByRole('heading', { name: 'Subscribed' }).waitFor({ timeout: WAIT_MS });

    // The same answer for an address subscribed already.
    await page.goto(`${ui.url}/status/acme`);
    expect(await submit(page, email)).toBe(202);
    await status.getByText(NEUTRAL).waitFor();

    const subscribes = requests.filter((request) => request.path.endsWith('/subscribe'));
    expect(subscribes).toEqual([
      { method: 'POST', path: '/api/statuspage/public/acme/subscribe', cookie: undefined },
      { method: 'POST', path: '/api/statuspage/public/acme/subscribe', cookie: undefined },
    ]);
    for (const request of requests) expect(request.cookie).toBeUndefined();
    await context.close();

    const { page: editor } = await signedInPage(browser, ui.url, testAdmin);
    await editor.goto(`${ui.url}/status-pages/${pageId}`);
    const subscribers = editor.getByRole('region', { name: 'E-mail subscribers' });
    await subscribers
      .locator(`[data-subscriber="${email}"] [data-status="confirmed"]`)
      .waitFor({ timeout: WAIT_MS });
    await checkScreen(editor, 'status-page-subscribers');
  });

  it('sends no cookie from a signed-in browser either, and says how long to wait when limited', async () => {
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    const requests = recordApiRequests(page);
    await page.goto(`${ui.url}/status/acme`);
    const form = page.getByRole('region', { name: 'Get e-mail updates' });
    await form.waitFor({ timeout: WAIT_MS });
    const email = 'eager@example.net';
    for (let i = 0; i < PER_ADDRESS; i++) expect(await submit(page, email)).toBe(202);
    await form.getByRole('status').getByText(NEUTRAL).waitFor();
    expect(await submit(page, email)).toBe(429);
    await form
      .getByRole('status')
      // The wait is whatever is left of the hour: "in 60 minutes" or "in 1 hour" alike.
      .getByText(/^Too many subscription requests\. Please try again in \d+ (minutes?|hours?)\.$/)
      .waitFor();
    const subscribes = requests.filter((request) => request.path.endsWith('/subscribe'));
    expect(subscribes).toHaveLength(PER_ADDRESS + 1);
    for (const request of subscribes) expect(request.cookie).toBeUndefined();
  });

  it('lists subscribers by status in the editor and removes one', async () => {
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    await page.goto(`${ui.url}/status-pages/${pageId}`);
    const subscribers = page.getByRole('region', { name: 'E-mail subscribers' });
    await subscribers
      .locator('[data-subscriber="eager@example.net"]')
      .waitFor({ timeout: WAIT_MS });
    const pending = await subscribersFiltered(subscribers, 'Pending');
    await expect.poll(pending).toEqual(['eager@example.net']);
    const confirmed = await subscribersFiltered(subscribers, 'Confirmed');
    await expect.poll(confirmed).toEqual(['visitor@example.net']);

    await subscribers.getByRole('button', { name: 'Remove visitor@example.net' }).click();
    const dialog = await openedDialog(page, 'Remove subscriber');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await subscribers.getByText('No confirmed subscribers.').waitFor({ timeout: WAIT_MS });
    const left = await ui.call<{ subscribers: { email: string }[] }>(
      'statuspage',
      'getSubscribers',
      { pageId },
      admin,
    );
    expect(left.subscribers.map((row) => row.email)).toEqual(['eager@example.net']);
  });

  it('shows no subscribers to someone who may read the page but not manage it', async () => {
    const reader = { email: 'reader@example.com', password: 'reader-password-123', name: 'Rea' };
    await createPersonWithRules(ui, admin, reader, 'status-readers', [
      'statuspage.page.read',
      'catalog.catalog.read',
    ]);
    const { page } = await signedInPage(browser, ui.url, reader);
    const requests = recordApiRequests(page);
    await page.goto(`${ui.url}/status-pages/${pageId}`);
    await page.getByLabel(/^Title/).waitFor({ timeout: WAIT_MS });
    expect(await page.getByRole('region', { name: 'E-mail subscribers' }).count()).toBe(0);
    expect(await page.getByText('eager@example.net').count()).toBe(0);
    expect(requests.some((request) => request.path.includes('getSubscribers'))).toBe(false);
  });
});
