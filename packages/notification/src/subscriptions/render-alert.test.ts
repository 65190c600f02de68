import { parse } from 'node-html-parser';
import type {
  AlertFacts,
  HealthFacts,
  IncidentFacts,
  MaintenanceFacts,
} from '@checkline/notification-node';
import {
  AlertFactsSchema,
  markdownToChat,
  markdownToHtml,
  markdownToText,
} from '@checkline/notification-node';
import { describe, expect, it } from 'vitest';
import { durationOf, systemList, timeOf } from './messages.ts';
import { renderAlert } from './render-alert.ts';
import { healthImportance } from './render-health.ts';
import { incidentImportance } from './render-incident.ts';

const api = { id: '00000000-0000-4000-8000-0000000000a1', name: 'Payments *API*' };
const db = { id: '00000000-0000-4000-8000-0000000000d2', name: 'Ledger DB' };

const failing: HealthFacts = {
  kind: 'healthcheck.status_changed',
  system: api,
  previous: 'healthy',
  current: 'unhealthy',
  changedAt: '2030-01-01T10:07:30.000Z',
  previousSince: '2030-01-01T08:00:00.000Z',
  previousDurationMs: 7_650_000,
  failingChecks: [
    {
      id: '00000000-0000-4000-8000-0000000000c1',
      name: 'Checkout ping',
      type: 'http',
      status: 'fail',
      message: 'Expected status 2xx, got 500',
      latencyMs: 12,
      checkedAt: '2030-01-01T10:07:30.000Z',
    },
  ],
};

const incident: IncidentFacts = {
  kind: 'incident.created',
  incident: {
    id: '00000000-0000-4000-8000-0000000000c3',
    title: 'Card [declines](http://evil.example)',
    description: 'Some card payments fail.',
    status: 'investigating',
    severity: 'critical',
    latestUpdate: null,
  },
  systems: [api, db],
};

const window: MaintenanceFacts = {
  kind: 'maintenance.started',
  window: {
    id: '00000000-0000-4000-8000-0000000000e4',
    title: 'DB upgrade',
    startAt: '2030-01-01T02:00:00.000Z',
    endAt: '2030-01-01T03:30:00.000Z',
  },
  systems: [db],
};

describe('the health renderer works', () => {
  it('names the system, the check and the failure reason, with the time and a link', () => {
    const message = renderAlert(failing);
    expect(message).toMatchObject({
      type: 'healthcheck.status_changed',
      title: 'Now unhealthy: Payments *API*',
      importance: 'critical',
      action: { label: 'View system', url: `/systems/${api.id}` },
      facts: failing,
    });
    expect(message.body).toBe(
      [
        '**Payments \\*API\\*** changed from healthy to **unhealthy** at 2030-01-01 10:07:30 UTC.',
        'It had been healthy for 2 h 7 min.',
        'Failing checks:\n- **Checkout ping** (http): Expected status 2xx\\, got 500 (took 12 ms)',
      ].join('\n\n'),
    );
  });

  it('states how long the outage lasted on a recovery', () => {
    const recovery = renderAlert({
      ...failing,
      previous: 'unhealthy',
      current: 'healthy',
      previousDurationMs: 185_000,
      failingChecks: [],
    });
    expect(recovery.importance).toBe('info');
    expect(recovery.body).toContain('It had been unhealthy for 3 min 5 s.');
    expect(recovery.body).not.toContain('Failing checks');
  });

  it('leaves the duration out when the previous status has no recorded start', () => {
    const body = renderAlert({ ...failing, previousSince: null, previousDurationMs: null }).body;
    expect(body).not.toContain('It had been');
  });

  it('keeps titles within 200 characters', () => {
    const long = renderAlert({ ...failing, system: { ...api, name: 'x'.repeat(500) } });
    expect(long.title).toHaveLength(200);
    expect(long.title.endsWith('…')).toBe(true);
  });
});

describe('the incident renderer works', () => {
  it('names an incident, its severity, its systems and quotes its description', () => {
    const message = renderAlert(incident);
    expect(message.type).toBe('incident.created');
    expect(message.title).toBe('Incident: Card [declines](http://evil.example)');
    expect(message.body).toBe(
      [
        '**Card \\[declines\\]\\(http\\:\\/\\/evil\\.example\\)** (critical, investigating) affects **Payments \\*API\\*** and **Ledger DB**.',
        '> Some card payments fail\\.',
      ].join('\n\n'),
    );
    expect(message.action).toEqual({
      label: 'View incident',
      url: `/incidents/${incident.incident.id}`,
    });
  });

  it("quotes an update's message, line by line", () => {
    const message = renderAlert({
      ...incident,
      kind: 'incident.updated',
      incident: {
        ...incident.incident,
        status: 'identified',
        latestUpdate: {
          message: 'Root cause: expired DB credentials\nRotating now',
          at: '2030-01-01T10:00:00.000Z',
        },
      },
    });
    expect(message.title).toBe('Incident updated: Card [declines](http://evil.example)');
    expect(message.body).toContain('(critical, identified) still affects');
    expect(message.body).toContain(
      'Latest update, 2030-01-01 10:00:00 UTC:\n> Root cause\\: expired DB credentials\n> Rotating now',
    );
    expect(message.body).not.toContain('Some card payments fail');
  });

  it('says a resolved incident is resolved, as info', () => {
    const message = renderAlert({ ...incident, kind: 'incident.resolved', systems: [db] });
    expect(message.importance).toBe('info');
    expect(message.body).toBe(
      '**Card \\[declines\\]\\(http\\:\\/\\/evil\\.example\\)** is resolved. It affected **Ledger DB**.',
    );
  });
});

describe('the maintenance renderer works', () => {
  it('announces a window starting and ending with its planned period', () => {
    expect(renderAlert(window)).toEqual({
      type: 'maintenance.started',
      title: 'Maintenance started: DB upgrade',
      body: 'Maintenance **DB upgrade** started for **Ledger DB**.\n\nPlanned from 2030-01-01 02:00:00 UTC to 2030-01-01 03:30:00 UTC.',
      importance: 'info',
      action: { label: 'View maintenance', url: `/maintenance/${window.window.id}` },
      facts: window,
    });
    const ended = renderAlert({
      ...window,
      kind: 'maintenance.ended',
      window: { ...window.window, startAt: null, endAt: null },
    });
    expect(ended.type).toBe('maintenance.ended');
    expect(ended.body).toBe('Maintenance **DB upgrade** ended for **Ledger DB**.');
  });
});

describe('the shared parts of messages work', () => {
  it('lists at most ten systems by name', () => {
    const many = Array.from({ length: 12 }, (_, n) => ({ id: `${n}`, name: `s${n}` }));
    expect(systemList(many)).toMatch(/\*\*s9\*\* and 2 more$/);
    expect(systemList([])).toBe('');
  });

  it('writes durations in their two largest units and times in UTC', () => {
    expect(durationOf(450)).toBe('450 ms');
    expect(durationOf(12_000)).toBe('12 s');
    expect(durationOf(3_600_000)).toBe('1 h');
    expect(durationOf(90_061_000)).toBe('1 d 1 h');
    expect(timeOf('2030-01-01T10:07:30.123Z')).toBe('2030-01-01 10:07:30 UTC');
  });

  it('follows the health status: unhealthy critical, degraded warning, else info', () => {
    expect(healthImportance('unhealthy')).toBe('critical');
    expect(healthImportance('degraded')).toBe('warning');
    expect(healthImportance('healthy')).toBe('info');
    expect(healthImportance('maintenance')).toBe('info');
  });

  it('follows the severity, and a resolved incident is info', () => {
    expect(incidentImportance('incident.created', 'critical')).toBe('critical');
    expect(incidentImportance('incident.updated', 'major')).toBe('warning');
    expect(incidentImportance('incident.created', 'minor')).toBe('info');
    expect(incidentImportance('incident.resolved', 'critical')).toBe('info');
  });
});

describe('monitored values stay inert in every renderer', () => {
  const hostile = '[click](https://evil.example) <!channel> <@U123> <script>x</script>';
  const system = { id: '00000000-0000-4000-8000-0000000000e5', name: hostile };
  const cases: AlertFacts[] = [
    {
      ...failing,
      system,
      failingChecks: [
        { ...failing.failingChecks[0]!, name: hostile, type: hostile, message: hostile },
      ],
    },
    {
      ...incident,
      kind: 'incident.updated',
      incident: {
        ...incident.incident,
        title: hostile,
        latestUpdate: { message: hostile, at: '2030-01-01T00:00:00.000Z' },
      },
      systems: [system],
    },
    {
      ...incident,
      incident: { ...incident.incident, title: hostile, description: hostile },
      systems: [system],
    },
    { ...window, window: { ...window.window, title: hostile }, systems: [system] },
  ];

  it.each(cases.map((facts) => [facts.kind, facts] as const))(
    'in HTML, text and chat (%s)',
    (_, facts) => {
      expect(AlertFactsSchema.parse(facts)).toEqual(facts);
      const { body } = renderAlert(facts);
      const html = parse(markdownToHtml(body));
      expect(html.querySelectorAll('a, img, script')).toHaveLength(0);
      expect(html.text).toContain(hostile);
      expect(markdownToText(body)).toContain(hostile);
      const chat = markdownToChat(body);
      expect(chat).not.toMatch(/<[^>]*>/);
      expect(chat).toContain('&lt;!channel&gt; &lt;@U123&gt;');
    },
  );
});
