import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { markdownToChat } from '../render/markdown-to-chat.ts';
import { markdownToHtml } from '../render/markdown-to-html.ts';
import { markdownToText } from '../render/markdown-to-text.ts';
import {
  healthImportance,
  healthStatusMessage,
  incidentImportance,
  incidentMessage,
  maintenanceMessage,
  suppressedByMaintenance,
  systemList,
} from './messages.ts';

const api = { id: '00000000-0000-4000-8000-0000000000a1', name: 'Payments *API*' };
const db = { id: '00000000-0000-4000-8000-0000000000d2', name: 'Ledger DB' };
const incident = {
  incidentId: '00000000-0000-4000-8000-0000000000c3',
  title: 'Card [declines](http://evil.example)',
  severity: 'critical' as const,
  status: 'investigating' as const,
  systemIds: [api.id, db.id],
};

describe('subscription messages work', () => {
  it('names the system and the change of a health status, escaped, with a link to the system', () => {
    const message = healthStatusMessage(
      {
        systemId: api.id,
        previous: 'healthy',
        current: 'unhealthy',
        at: '2030-01-01T00:00:00.000Z',
      },
      api,
    );
    expect(message).toEqual({
      type: 'healthcheck.status_changed',
      title: 'Now unhealthy: Payments *API*',
      body: '**Payments \\*API\\*** changed from healthy to **unhealthy**.',
      importance: 'critical',
      action: { label: 'View system', url: `/systems/${api.id}` },
    });
  });

  it('names an incident, its severity and its systems, with a link to the incident', () => {
    const message = incidentMessage('created', incident, [api, db]);
    expect(message.type).toBe('incident.created');
    expect(message.title).toBe('Incident: Card [declines](http://evil.example)');
    expect(message.body).toBe(
      '**Card \\[declines\\]\\(http\\:\\/\\/evil\\.example\\)** (critical, investigating) affects **Payments \\*API\\*** and **Ledger DB**.',
    );
    expect(message.action).toEqual({
      label: 'View incident',
      url: `/incidents/${incident.incidentId}`,
    });
    expect(incidentMessage('resolved', incident, [db]).body).toBe(
      '**Card \\[declines\\]\\(http\\:\\/\\/evil\\.example\\)** is resolved. It affected **Ledger DB**.',
    );
  });

  it('announces a maintenance window starting and ending', () => {
    const window = {
      windowId: '00000000-0000-4000-8000-0000000000e4',
      title: 'DB upgrade',
      systemIds: [db.id],
    };
    expect(maintenanceMessage('started', window, [db])).toEqual({
      type: 'maintenance.started',
      title: 'Maintenance started: DB upgrade',
      body: 'Maintenance **DB upgrade** started for **Ledger DB**.',
      importance: 'info',
      action: { label: 'View maintenance', url: `/maintenance/${window.windowId}` },
    });
    expect(maintenanceMessage('ended', window, [db]).type).toBe('maintenance.ended');
  });

  it('keeps titles within 200 characters', () => {
    const long = healthStatusMessage(
      {
        systemId: api.id,
        previous: 'healthy',
        current: 'degraded',
        at: '2030-01-01T00:00:00.000Z',
      },
      { ...api, name: 'x'.repeat(500) },
    );
    expect(long.title).toHaveLength(200);
    expect(long.title.endsWith('…')).toBe(true);
  });

  it('lists at most ten systems by name', () => {
    const many = Array.from({ length: 12 }, (_, n) => ({ id: `${n}`, name: `s${n}` }));
    expect(systemList(many)).toMatch(/\*\*s9\*\* and 2 more$/);
    expect(systemList([])).toBe('');
  });

  it('says which maintenance window held an alert back', () => {
    expect(suppressedByMaintenance({ id: 'w1', title: 'DB upgrade' })).toBe(
      'Suppressed: maintenance window "DB upgrade" (w1) covers the system',
    );
  });
});

describe('importance works', () => {
  it('follows the health status: unhealthy critical, degraded warning, else info', () => {
    expect(healthImportance('unhealthy')).toBe('critical');
    expect(healthImportance('degraded')).toBe('warning');
    expect(healthImportance('healthy')).toBe('info');
    expect(healthImportance('maintenance')).toBe('info');
  });

  it('follows the severity, and a resolved incident is info', () => {
    expect(incidentImportance('created', 'critical')).toBe('critical');
    expect(incidentImportance('updated', 'major')).toBe('warning');
    expect(incidentImportance('created', 'minor')).toBe('info');
    expect(incidentImportance('resolved', 'critical')).toBe('info');
  });
});

describe('subscription messages through the renderers', () => {
  const hostile = {
    id: '00000000-0000-4000-8000-0000000000e5',
    name: '[click](https://evil.example) <!channel> <@U123> <script>x</script>',
  };
  const window = {
    windowId: 'w1',
    title: '`<!here>` <img src=x onerror=alert(1)>',
    systemIds: [hostile.id],
  };
  const messages = [
    healthStatusMessage(
      {
        systemId: hostile.id,
        previous: 'healthy',
        current: 'degraded',
        at: '2030-01-01T00:00:00.000Z',
      },
      hostile,
    ),
    incidentMessage('created', { ...incident, title: hostile.name }, [hostile]),
    maintenanceMessage('started', window, [hostile]),
  ];

  it.each(messages.map((message) => [message.type, message] as const))(
    'keeps monitored names inert in HTML, text and chat (%s)',
    (_, message) => {
      const html = parse(markdownToHtml(message.body));
      expect(html.querySelectorAll('a, img, script')).toHaveLength(0);
      expect(html.text).toContain(hostile.name);
      expect(markdownToText(message.body)).toContain(hostile.name);
      const chat = markdownToChat(message.body);
      expect(chat).not.toMatch(/<[^>]*>/);
      expect(chat).toContain('&lt;!channel&gt; &lt;@U123&gt;');
    },
  );
});
