import { randomBytes, randomUUID } from 'node:crypto';
import { loopbackEgress } from '@checkline/notification-node/testing';
import type { ReceivedMail, SmtpTestServer } from '@checkline/notification-smtp/testing';
import { startSmtpTestServer, unsubscribeHeadersOf } from '@checkline/notification-smtp/testing';
import { createStatuspagePlugin } from '@checkline/statuspage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWithRoles, seedTeamWorld, type TeamWorld } from './support/team-world.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 23 item 3 over HTTP, with a real SMTP server: a visitor subscribes to a published page
 * without an account, confirms through the link mailed to them, receives the page's incident
 * updates through the e-mail channel, and unsubscribes with the link in one; forged and replayed
 * links change nothing; the requests are limited; only the page's admins see the addresses.
 */
const PER_ADDRESS = 3;
const PER_PAGE = 12;

let smtp: SmtpTestServer;
let server: TestServer;
let world: TeamWorld;
let systemId: string;
let pageId: string;

const subscribe = (email: string, slug = 'acme') =>
  server.request(`/api/statuspage/public/${slug}/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });

const mailsTo = (address: string): ReceivedMail[] =>
  smtp.received.filter((message) => message.recipients.includes(address));

/** Waits (at most 10 s) until `address` has received `count` mails. */
async function mailCount(address: string, count: number): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 10_000;
  while (mailsTo(address).length < count) {
    if (Date.now() > deadline) throw new Error(`${address} did not receive ${count} mails in 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return mailsTo(address);
}

const settled = () => server.checkline.runtime.events.settled();

/** The path of the first link to `route` in a mail's text part. */
function linkIn(mail: ReceivedMail, route: 'confirm' | 'unsubscribe'): string {
  const pattern = new RegExp(
    `${testEnv.BASE_URL}(/api/statuspage/subscriptions/${route}/[A-Za-z0-9_.-]+)`,
  );
  const match = pattern.exec(mail.mail.text ?? '');
  if (!match) throw new Error(`no ${route} link in: ${mail.mail.text}`);
  return match[1]!;
}

/** Follows a link as a person does: opens it, then presses the page's button (a POST). */
async function follow(path: string) {
  const page = await server.request(path);
  expect(page.status).toBe(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBe(path);
  return server.request(action!, { method: 'POST' });
}

const post = (path: string) => server.request(path, { method: 'POST' });

async function subscribers(caller: 'admin' | 'holder' | 'outsider' = 'admin', id = pageId) {
  return world.call(caller, 'statuspage', { getSubscribers: { pageId: id } });
}

async function subscribedEmails(): Promise<{ email: string; status: string; id: string }[]> {
  const answer = await subscribers();
  expect(answer.status).toBe(200);
  return answer.body.getSubscribers.subscribers;
}

/** Subscribes and confirms `email`; answers the confirmation mail. */
async function confirmedSubscriber(email: string) {
  const before = mailsTo(email).length;
  expect((await subscribe(email)).status).toBe(202);
  const [mail] = (await mailCount(email, before + 1)).slice(before);
  expect((await follow(linkIn(mail!, 'confirm'))).status).toBe(200);
  return mail!;
}

async function openIncident(title: string) {
  const { createIncident } = await world.asAdmin('incident', {
    createIncident: { title, severity: 'major', systemIds: [systemId] },
  });
  await settled();
  return createIncident.id as string;
}

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  server = await createTestServer({
    smtp: { egress: loopbackEgress() },
    extraPlugins: [
      createStatuspagePlugin({
        publicUrl: testEnv.FRONTEND_URL,
        apiUrl: testEnv.BASE_URL,
        subscribeLimits: {
          perAddress: { points: PER_ADDRESS, durationSeconds: 3_600 },
          perPage: { points: PER_PAGE, durationSeconds: 3_600 },
        },
      }),
    ],
  });
  world = await seedTeamWorld(server);
  await world.asAdmin('notification', {
    updateStrategy: {
      strategyId: 'notification-smtp.smtp',
      enabled: true,
      config: {
        host: 'localhost',
        port: smtp.port,
        secure: false,
        fromAddress: 'status@status.example',
      },
    },
  });
  systemId = await world.openSystem();
  const { createPage } = await world.asAdmin('statuspage', {
    createPage: {
      slug: 'acme',
      title: 'Acme status',
      sections: [{ title: 'Core', items: [{ kind: 'system', systemId, displayName: 'API' }] }],
    },
  });
  pageId = createPage.id;
  await world.asAdmin('statuspage', { publishPage: { id: pageId } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('subscribing to a status page by e-mail', () => {
  it('confirms through the mailed link, mails incident updates, and unsubscribes through the link in one', async () => {
    const email = 'visitor@example.net';
    const answer = await subscribe(email);
    expect(answer.status).toBe(202);
    const [confirmation] = await mailCount(email, 1);
    expect(confirmation!.mail.subject).toBe('Confirm your subscription to Acme status');
    expect(await subscribedEmails()).toMatchObject([{ email, status: 'pending' }]);

    // Nothing but the confirmation is sent before the link is followed.
    await openIncident('Before confirming');
    expect(mailsTo(email)).toHaveLength(1);

    const confirmed = await follow(linkIn(confirmation!, 'confirm'));
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Acme status');
    expect(await subscribedEmails()).toMatchObject([{ email, status: 'confirmed' }]);

    const incidentId = await openIncident('Checkout errors');
    await world.asAdmin('incident', {
      updateIncident: {
        id: incidentId,
        status: 'identified',
        message: 'A bad deploy; rolling back.',
      },
    });
    await settled();
    const mails = await mailCount(email, 3);
    const [opened, identified] = mails.slice(1);
    expect(opened!.mail.subject).toBe('[Acme status] Checkout errors: investigating');
    expect(identified!.mail.subject).toBe('[Acme status] Checkout errors: identified');
    expect(identified!.mail.text).toContain('A bad deploy; rolling back.');
    const unsubscribePath = linkIn(identified!, 'unsubscribe');
    expect(unsubscribeHeadersOf(identified!.mail)).toEqual({
      url: `${testEnv.BASE_URL}${unsubscribePath}`,
      post: 'List-Unsubscribe=One-Click',
    });

    const ended = await follow(unsubscribePath);
    expect(ended.status).toBe(200);
    expect(await subscribedEmails()).toEqual([]);
    await world.asAdmin('incident', {
      updateIncident: { id: incidentId, status: 'resolved', message: 'Fixed.' },
    });
    await settled();
    expect(mailsTo(email)).toHaveLength(3);
  });

  it('answers the same for a new, a pending and a subscribed address, and mails a subscribed one nothing', async () => {
    const email = 'twice@example.net';
    await confirmedSubscriber(email);
    const fresh = await subscribe('never-seen@example.net');
    const again = await subscribe(email);
    expect(again.status).toBe(fresh.status);
    expect(await again.json()).toEqual(await fresh.json());
    await mailCount('never-seen@example.net', 1);
    await settled();
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('changes nothing for forged and replayed confirmation links', async () => {
    const email = 'replay@example.net';
    expect((await subscribe(email)).status).toBe(202);
    const [first] = await mailCount(email, 1);
    const forged = [
      `/api/statuspage/subscriptions/confirm/${randomBytes(32).toString('base64url')}`,
      `/api/statuspage/subscriptions/confirm/not-a-token`,
      `${linkIn(first!, 'confirm').slice(0, -2)}AA`,
    ];
    for (const path of forged) expect((await post(path)).status).toBe(400);
    const pending = (await subscribedEmails()).find((row) => row.email === email);
    expect(pending?.status).toBe('pending');

    // A second request replaces the token: the first link no longer confirms.
    expect((await subscribe(email)).status).toBe(202);
    const [, second] = await mailCount(email, 2);
    expect((await post(linkIn(first!, 'confirm'))).status).toBe(400);
    expect((await subscribedEmails()).find((row) => row.email === email)?.status).toBe('pending');
    expect((await post(linkIn(second!, 'confirm'))).status).toBe(200);
    // Used once: the same link again changes nothing.
    expect((await post(linkIn(second!, 'confirm'))).status).toBe(400);
    expect((await subscribedEmails()).find((row) => row.email === email)?.status).toBe('confirmed');
  });

  it('changes nothing for forged and replayed unsubscribe links', async () => {
    const email = 'stay@example.net';
    await confirmedSubscriber(email);
    await openIncident('Slow search');
    const [, update] = await mailCount(email, 2);
    const path = linkIn(update!, 'unsubscribe');
    const [subscriberId, mac] = path.split('/').at(-1)!.split('.') as [string, string];
    const forged = [
      `/api/statuspage/subscriptions/unsubscribe/${subscriberId}.${randomBytes(32).toString('base64url')}`,
      `/api/statuspage/subscriptions/unsubscribe/${randomUUID()}.${mac}`,
      `/api/statuspage/subscriptions/unsubscribe/${subscriberId}`,
    ];
    for (const forgery of forged) expect((await post(forgery)).status).toBe(400);
    expect((await subscribedEmails()).some((row) => row.email === email)).toBe(true);

    expect((await post(path)).status).toBe(200);
    expect((await subscribedEmails()).some((row) => row.email === email)).toBe(false);
    // Subscribed again: the old link names the ended subscription and ends nothing.
    await confirmedSubscriber(email);
    expect((await post(path)).status).toBe(200);
    expect((await subscribedEmails()).find((row) => row.email === email)?.status).toBe('confirmed');
  });

  it('limits requests per address and per page', async () => {
    const { createPage } = await world.asAdmin('statuspage', {
      createPage: { slug: 'limited', title: 'Limited', sections: [] },
    });
    await world.asAdmin('statuspage', { publishPage: { id: createPage.id } });
    const email = 'eager@example.net';
    for (let i = 0; i < PER_ADDRESS; i++)
      expect((await subscribe(email, 'limited')).status).toBe(202);
    const refused = await subscribe(email, 'limited');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The address's budget is spent on every page.
    expect((await subscribe(email, 'acme')).status).toBe(429);

    const statuses: number[] = [];
    for (let i = 0; i < PER_PAGE; i++)
      statuses.push((await subscribe(`many-${i}@example.net`, 'limited')).status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(PER_PAGE - PER_ADDRESS - 1);
    expect(statuses.at(-1)).toBe(429);
  });

  it('lets no caller but the server itself mail an address through sendToAddress', async () => {
    const input = {
      sendToAddress: {
        address: 'victim@example.net',
        notification: { title: 'Hello', description: 'spam', type: 'test.spam' },
      },
    };
    for (const caller of ['admin', 'holder'] as const) {
      const answer = await world.call(caller, 'notification', input);
      expect({ caller, status: answer.status }).toEqual({ caller, status: 403 });
    }
    expect((await server.keyed('notification', input)).status).toBe(401);
    await settled();
    expect(mailsTo('victim@example.net')).toEqual([]);
  });

  it('shows the addresses to the page admins only, and never in the public answer', async () => {
    const email = 'private@example.net';
    await confirmedSubscriber(email);
    const publicJson = await (await server.request('/api/statuspage/public/acme')).text();
    expect(publicJson).not.toContain(email);
    expect(publicJson).not.toContain('example.net');

    const anonymous = await server.keyed('statuspage', { getSubscribers: { pageId } });
    expect(anonymous.status).toBe(401);
    const { createRole } = await world.asAdmin('auth', {
      createRole: { name: 'page-readers', accessRules: ['statuspage.page.read'] },
    });
    const reader = await applicationWithRoles(world.asAdmin, 'page-reader', [createRole.id]);
    const refused = await server.keyed('statuspage', { getSubscribers: { pageId } }, reader.key);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).not.toContain(email);

    // A page listing a team-only system: its subscribers are the team's to see.
    const hidden = await world.hiddenSystem();
    const made = await world.call('holder', 'statuspage', {
      createPage: {
        slug: 'team-page',
        title: 'Team',
        sections: [{ title: 'T', items: [{ kind: 'system', systemId: hidden, displayName: 'T' }] }],
      },
    });
    const teamPage = made.body.createPage.id as string;
    expect((await subscribers('holder', teamPage)).status).toBe(200);
    expect((await subscribers('outsider', teamPage)).status).toBe(404);
    expect((await subscribers('outsider')).status).toBe(200);

    const [row] = (await subscribedEmails()).filter((item) => item.email === email);
    const removed = await world.call('outsider', 'statuspage', {
      deleteSubscriber: { pageId: teamPage, id: row!.id },
    });
    expect(removed.status).toBe(404);
    expect((await subscribedEmails()).some((item) => item.email === email)).toBe(true);
    const deleted = await world.call('admin', 'statuspage', {
      deleteSubscriber: { pageId, id: row!.id },
    });
    expect(deleted.status).toBe(200);
    expect((await subscribedEmails()).some((item) => item.email === email)).toBe(false);
  });
});
