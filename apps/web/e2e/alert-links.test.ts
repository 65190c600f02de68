import {
  startSmtpTestServer,
  type ReceivedMail,
  type SmtpTestServer,
} from '@checkline/notification-smtp/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/browser.ts';
import { createHttpCheck, startTarget, type Target } from './support/target.ts';
import { closeAll, startBrowserSuite } from './support/suite.ts';
import { enableSmtpChannel, firstMail } from './support/mail.ts';
import { testAdmin, type UiServer } from './support/ui-server.ts';

let ui: UiServer;
let browser: Browser;
let smtp: SmtpTestServer;
let admin: Record<string, string>;
let target: Target;

beforeAll(async () => {
  target = await startTarget((_request, response) => response.writeHead(500).end('broken'));
  smtp = await startSmtpTestServer();
  ({ ui, browser, admin } = await startBrowserSuite());
  await enableSmtpChannel(ui, admin, smtp, 'alerts@status.example');
  // Everything the admin can read: health, incident and maintenance events.
  await ui.call('notification', 'createSubscription', {}, admin);
});
afterAll(() => closeAll(browser, ui, smtp, target));

const WAIT_MS = 90_000;
// A mail may wait behind an earlier one of the same system that failed once under load and is
// retried after the first retry delay (deliveries of one system go one at a time).
const MAIL_WAIT_MS = 240_000;
const HEALTH_SUBJECT = /^Now \w+: mailed-api/;

/** Every link of the message's HTML part that points into the app (not unsubscribe links). */
function appLinks(message: ReceivedMail): string[] {
  const html = typeof message.mail.html === 'string' ? message.mail.html : '';
  return [...html.matchAll(/href="([^"]+)"/g)]
    .map((match) => match[1]!.replaceAll('&amp;', '&'))
    .filter((href) => href.startsWith(ui.url) && !href.includes('unsubscribe'));
}

describe('the links of real alert e-mails open the right pages', { timeout: 900_000 }, () => {
  it('a health alert, an incident and a maintenance notification each link to their page', async () => {
    const system = await ui.call<{ id: string }>(
      'catalog',
      'createSystem',
      { name: 'mailed-api' },
      admin,
    );
    const checkId = await createHttpCheck(ui, admin, {
      systemId: system.id,
      name: 'front',
      url: target.url,
    });
    await ui.call('healthcheck', 'runHealthCheck', { id: checkId }, admin);
    // The health alert first: a window covering the system, scheduled below, holds back a health
    // alert handled after it exists ("Suppressed: maintenance window ..."), and the event is
    // handled after the run's answer, so on a slow round the alert would never be sent.
    await firstMail(smtp, (message) => HEALTH_SUBJECT.test(message.mail.subject ?? ''), {
      timeout: MAIL_WAIT_MS,
    });
    const incident = await ui.call<{ id: string }>(
      'incident',
      'createIncident',
      { title: 'Mailed outage', severity: 'major', systemIds: [system.id] },
      admin,
    );
    // Begun a minute ago: the maintenance ticker announces it as started on its next tick.
    const window = await ui.call<{ id: string }>(
      'maintenance',
      'scheduleWindow',
      {
        title: 'Mailed upgrade',
        systemIds: [system.id],
        startAt: new Date(Date.now() - 60_000).toISOString(),
        endAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      admin,
    );

    const expected = [
      { subject: HEALTH_SUBJECT, path: `/systems/${system.id}`, heading: 'mailed-api' },
      {
        subject: /^Incident: Mailed outage/,
        path: `/incidents/${incident.id}`,
        heading: 'Mailed outage',
      },
      {
        subject: /^Maintenance started: Mailed upgrade/,
        path: `/maintenance/${window.id}`,
        heading: 'Mailed upgrade',
      },
    ];
    const { page } = await signedInPage(browser, ui.url, testAdmin);
    for (const { subject, path, heading } of expected) {
      const message = await firstMail(smtp, (message) => subject.test(message.mail.subject ?? ''), {
        timeout: MAIL_WAIT_MS,
      });
      expect(message.recipients).toEqual([testAdmin.email]);
      const links = appLinks(message);
      expect(links).toContain(`${ui.url}${path}`);
      for (const link of links) {
        await page.goto(link);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: WAIT_MS });
        expect(new URL(page.url()).pathname).toBe(path);
      }
    }
  });
});
