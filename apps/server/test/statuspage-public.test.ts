import { createTestDatabase } from '@checkline/db/testing';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { migrationsOf } from '../src/start.ts';
import { createAdminKey } from './support/admin-key.ts';
import { countingDatabase } from './support/statement-counter.ts';
import { startLoopbackTarget } from './support/team-world.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 23: the anonymous read path of a status page. A published page shows what it lists under
 * its display names and nothing else; changes reach it through events; cached reads send no
 * statement to the database.
 */
let server: TestServer;
let counting: ReturnType<typeof countingDatabase>;
let target: Awaited<ReturnType<typeof startLoopbackTarget>>;
let key: string;
const ids: Record<string, string> = {};

async function call(pluginId: string, procedure: string, input: unknown) {
  const response = await server.keyed(pluginId, { [procedure]: input }, key);
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${procedure}: ${JSON.stringify(body)}`);
  return body[procedure];
}

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const settled = () => server.checkline.runtime.events.settled();
const readPublic = async (slug = 'acme', headers: Record<string, string> = {}) =>
  server.request(`/api/statuspage/public/${slug}`, { headers });
const publicJson = async () => {
  const response = await readPublic();
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
};

/** Waits (at most 20 s) until a scheduled run of each system's check is in today's rollups. */
async function scheduledRunsOf(systemIds: string[]) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { systems } = await call('healthcheck', 'getDailyUptime', { systemIds, days: 1 });
    const pending = (systems as { days: { uptimePercent: number | null }[] }[]).filter(
      (system) => system.days[0]!.uptimePercent === null,
    );
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error('the scheduler did not run the checks in 20 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  target = await startLoopbackTarget();
  counting = countingDatabase(await createTestDatabase(migrationsOf(createPlugins(testEnv))));
  server = await createTestServer({ database: counting.handle });
  key = await createAdminKey(server);
  const system = async (name: string) => (await call('catalog', 'createSystem', { name })).id;
  ids.payments = await system('payments-internal-name');
  ids.billing = await system('billing-internal-name');
  ids.vault = await system('vault-internal-name');
  ids.unlisted = await system('unlisted-internal-name');
  ids.group = (await call('catalog', 'createGroup', { name: 'core-internal-group' })).id;
  for (const member of [ids.billing, ids.vault]) {
    await call('catalog', 'addSystemToGroup', { groupId: ids.group, systemId: member });
  }
  const team = await call('auth', 'createTeam', { name: 'vault-team' });
  await call('auth', 'updateResourceAccess', {
    resourceType: 'catalog.system',
    resourceId: ids.vault,
    teamOnly: true,
    grants: [{ teamId: team.id, access: 'manage' }],
  });
  const check = await call('healthcheck', 'createHealthCheck', {
    systemId: ids.payments,
    name: 'payments-check-internal',
    type: 'healthcheck.http',
    config: { url: `${target.url}secret-path` },
    intervalSeconds: 3_600,
    timeoutMs: 2_000,
  });
  ids.check = check.id;
  // The team-only member fails: were it on the page, its group would show an outage.
  const vaultCheck = await call('healthcheck', 'createHealthCheck', {
    systemId: ids.vault,
    name: 'vault-check-internal',
    type: 'healthcheck.http',
    config: { url: 'http://127.0.0.1:9/vault' },
    intervalSeconds: 3_600,
    timeoutMs: 2_000,
  });
  ids.vaultCheck = vaultCheck.id;
  // Both checks' first runs are due at once: the scheduler's runs fill today's rollups.
  await scheduledRunsOf([ids.payments!, ids.vault!]);
  ids.incident = (
    await call('incident', 'createIncident', {
      title: 'Card payments fail',
      severity: 'major',
      systemIds: [ids.payments],
    })
  ).id;
  await call('incident', 'updateIncident', { id: ids.incident, message: 'We are on it' });
  await call('incident', 'createIncident', {
    title: 'Unlisted trouble',
    severity: 'minor',
    systemIds: [ids.unlisted],
  });
  await call('maintenance', 'scheduleWindow', {
    title: 'Database upgrade',
    description: 'Short pauses',
    systemIds: [ids.payments],
    startAt: hoursFromNow(24),
    endAt: hoursFromNow(25),
  });
  await call('maintenance', 'scheduleWindow', {
    title: 'Unlisted window',
    systemIds: [ids.unlisted],
    startAt: hoursFromNow(1),
    endAt: hoursFromNow(2),
  });
  const page = await call('statuspage', 'createPage', {
    slug: 'acme',
    title: 'Acme status',
    description: 'How Acme is doing',
    brandColor: '#123456',
    sections: [
      {
        title: 'Services',
        items: [{ kind: 'system', systemId: ids.payments, displayName: 'Payments' }],
      },
      {
        title: 'Platform',
        items: [{ kind: 'group', groupId: ids.group, displayName: 'Core services' }],
      },
    ],
  });
  ids.page = page.id;
  await settled();
});
afterAll(async () => {
  await server.close();
  await target.close();
});

/** 90 days ending today, each with the figure `uptime` expects of its date. */
const expectDays = (
  uptime: { firstDay: string; days: unknown[] },
  expected: (date: string) => number | null,
) => {
  const first = Date.parse(uptime.firstDay);
  const dates = uptime.days.map((_, index) =>
    new Date(first + index * 86_400_000).toISOString().slice(0, 10),
  );
  expect(dates).toHaveLength(90);
  expect(dates.at(-1)).toBe(new Date().toISOString().slice(0, 10));
  expect(uptime.days).toEqual(dates.map(expected));
};

describe('a status page for anonymous visitors', () => {
  it('is not found until it is published, like an unknown slug', async () => {
    for (const slug of ['acme', 'no-such-page', 'Not_A_Slug']) {
      const response = await readPublic(slug);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    await call('statuspage', 'publishPage', { id: ids.page });
    expect((await readPublic()).status).toBe(200);
  });

  it('answers exactly what the page publishes, field by field', async () => {
    const answer = await publicJson();
    const today = new Date().toISOString().slice(0, 10);
    const incident = answer.activeIncidents[0];
    expect(answer).toEqual({
      slug: 'acme',
      title: 'Acme status',
      description: 'How Acme is doing',
      logoUrl: null,
      brandColor: '#123456',
      status: 'operational',
      sections: [
        {
          title: 'Services',
          items: [
            {
              name: 'Payments',
              kind: 'system',
              status: 'operational',
              uptime: { firstDay: expect.any(String), days: expect.any(Array) },
            },
          ],
        },
        {
          title: 'Platform',
          // The team-only member stays off the page: the group shows billing alone.
          items: [
            {
              name: 'Core services',
              kind: 'group',
              status: 'unknown',
              uptime: { firstDay: expect.any(String), days: expect.any(Array) },
            },
          ],
        },
      ],
      activeIncidents: [
        {
          ref: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
          title: 'Card payments fail',
          severity: 'major',
          status: 'investigating',
          startedAt: expect.any(String),
          resolvedAt: null,
          updates: [
            { status: 'investigating', message: null, at: expect.any(String) },
            { status: 'investigating', message: 'We are on it', at: expect.any(String) },
          ],
        },
      ],
      recentIncidents: [],
      maintenance: [
        {
          ref: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
          title: 'Database upgrade',
          description: 'Short pauses',
          startAt: expect.any(String),
          endAt: expect.any(String),
          active: false,
        },
      ],
      generatedAt: expect.any(String),
    });
    // Payments' one passing run is in today's rollup; the group's open member has no check.
    expectDays(answer.sections[0].items[0].uptime, (date) => (date === today ? 100 : null));
    expectDays(answer.sections[1].items[0].uptime, () => null);
    expect(incident.ref).not.toBe(answer.maintenance[0].ref);

    const text = JSON.stringify(answer);
    for (const secret of [
      ...Object.values(ids),
      'payments-internal-name',
      'billing-internal-name',
      'vault-internal-name',
      'unlisted-internal-name',
      'core-internal-group',
      'payments-check-internal',
      'vault-check-internal',
      'secret-path',
      target.url,
      'Unlisted',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it('answers the same through the getPublicPage procedure, without credentials', async () => {
    const rest = await server.rest('GET', 'statuspage/getPublicPage', { query: 'slug=acme' });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual(await publicJson());
    const missing = await server.rest('GET', 'statuspage/getPublicPage', { query: 'slug=nope' });
    expect(missing.status).toBe(404);
  });

  it('serves cached reads with an ETag, 304 for a match, and no database statement', async () => {
    const first = await readPublic();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const { result, statements } = await counting.statementsDuring(async () => {
      const answers = [];
      for (let index = 0; index < 20; index++) answers.push(await readPublic());
      answers.push(await readPublic('acme', { 'if-none-match': etag }));
      answers.push(await readPublic('acme', { 'if-none-match': `"other", W/${etag}` }));
      return answers;
    });
    expect(statements).toBe(0);
    expect(result.slice(0, 20).map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(result.slice(0, 20).map((answer) => answer.headers.get('etag'))).toEqual(
      Array(20).fill(etag),
    );
    expect(result.slice(20).map((answer) => answer.status)).toEqual([304, 304]);
    expect(await result[20]!.text()).toBe('');
  });

  it('shows a status change once it is announced', async () => {
    const before = (await readPublic()).headers.get('etag');
    await call('healthcheck', 'updateHealthCheck', {
      id: ids.check,
      config: { url: 'http://127.0.0.1:9/closed' },
    });
    await call('healthcheck', 'runHealthCheck', { id: ids.check });
    await settled();
    // The change dropped the cached answer: this read rebuilds it from the database.
    const { result: response, statements } = await counting.statementsDuring(() => readPublic());
    expect(statements).toBeGreaterThan(0);
    expect(response.headers.get('etag')).not.toBe(before);
    const answer = (await response.json()) as Record<string, any>;
    expect(answer.sections[0].items[0].status).toBe('outage');
    expect(answer.status).toBe('outage');
    expect(JSON.stringify(answer)).not.toContain('9/closed');
  });

  it('shows an incident update and a new window once they are made', async () => {
    await call('incident', 'updateIncident', {
      id: ids.incident,
      status: 'identified',
      message: 'A bad deploy',
    });
    await call('maintenance', 'scheduleWindow', {
      title: 'Network work',
      systemIds: [ids.billing],
      startAt: hoursFromNow(-1),
      endAt: hoursFromNow(1),
    });
    await settled();
    const answer = await publicJson();
    expect(answer.activeIncidents[0]).toMatchObject({ status: 'identified' });
    expect(answer.activeIncidents[0].updates.at(-1)).toMatchObject({
      status: 'identified',
      message: 'A bad deploy',
    });
    expect(answer.maintenance.map((window: { title: string }) => window.title)).toEqual([
      'Network work',
      'Database upgrade',
    ]);
    expect(answer.maintenance[0].active).toBe(true);
  });

  it('moves a resolved incident to the recent ones', async () => {
    await call('incident', 'updateIncident', { id: ids.incident, status: 'resolved' });
    await settled();
    const answer = await publicJson();
    expect(answer.activeIncidents).toEqual([]);
    expect(answer.recentIncidents).toEqual([
      expect.objectContaining({ title: 'Card payments fail', resolvedAt: expect.any(String) }),
    ]);
  });

  it('publishes incidents and maintenance as a valid Atom feed', async () => {
    const response = await server.request('/api/statuspage/public/acme/feed.atom');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['entry', 'link'].includes(name),
    }).parse(xml);
    const feed = parsed.feed;
    // RFC 4287: a feed has id, title, updated and an author (or every entry has one).
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe('http://localhost:3000/status/acme');
    expect(feed.title).toBe('Acme status');
    expect(new Date(feed.updated).toISOString()).toBe(feed.updated);
    expect(feed.author.name).toBe('Acme status');
    expect(feed.link.map((link: Record<string, string>) => link['@_rel'])).toEqual([
      'alternate',
      'self',
    ]);
    const entries = feed.entry as Record<string, any>[];
    expect(entries.map((entry) => entry.title).sort()).toEqual([
      '[maintenance] Database upgrade',
      '[maintenance] Network work',
      '[resolved] Card payments fail',
    ]);
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect(entry.id).toMatch(
        /^http:\/\/localhost:3000\/status\/acme#(incident|maintenance)-[A-Za-z0-9_-]{16}$/,
      );
      expect(new Date(entry.updated).toISOString()).toBe(entry.updated);
      expect(typeof entry.summary['#text']).toBe('string');
    }
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(3);
    const updated = entries.map((entry) => Date.parse(entry.updated));
    expect(updated).toEqual([...updated].sort((a, b) => b - a));
    const incident = entries.find((entry) => entry.title.includes('Card payments'))!;
    expect(incident.summary['#text']).toContain('identified: A bad deploy');
    expect(incident.summary['#text']).toContain('Severity: major');
    for (const secret of [...Object.values(ids), 'payments-internal-name', 'Unlisted']) {
      expect(xml).not.toContain(secret);
    }
  });

  it('draws a badge of the overall status', async () => {
    await call('statuspage', 'updatePage', { id: ids.page, title: 'Acme <&> "status"' });
    const response = await server.request('/api/statuspage/public/acme/badge.svg');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Acme &#60;&#38;&#62; &#34;status&#34;: outage');
    expect(svg).not.toContain('<&>');
    const etag = response.headers.get('etag')!;
    const again = await server.request('/api/statuspage/public/acme/badge.svg', {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(etag).not.toBe((await readPublic()).headers.get('etag'));
  });

  it('is gone once unpublished, and back with the same answer once published again', async () => {
    await call('statuspage', 'unpublishPage', { id: ids.page });
    expect((await readPublic()).status).toBe(404);
    expect((await server.request('/api/statuspage/public/acme/badge.svg')).status).toBe(404);
    await call('statuspage', 'publishPage', { id: ids.page });
    expect((await readPublic()).status).toBe(200);
  });

  it('drops a deleted system from the page', async () => {
    await call('catalog', 'deleteSystem', { id: ids.payments });
    await settled();
    const answer = await publicJson();
    expect(answer.sections[0].items).toEqual([]);
    const page = await call('statuspage', 'getPage', { id: ids.page });
    expect(page.systemIds).toEqual([]);
  });
});
