import { MaintenanceFactsSchema } from '@checkline/notification-node';
import { describe, expect, it } from 'vitest';
import { windowFacts, windowSources } from './window-source.ts';

const window = {
  windowId: '00000000-0000-4000-8000-0000000000e4',
  title: 'DB upgrade',
  systemIds: ['00000000-0000-4000-8000-0000000000d2'],
  startAt: '2030-01-01T02:00:00.000Z',
  endAt: '2030-01-01T03:30:00.000Z',
};
const systems = [{ id: window.systemIds[0]!, name: 'Ledger DB' }];

describe('the maintenance window sources work', () => {
  it('turn a window event into facts with its planned period', () => {
    const facts = windowFacts('maintenance.started', window, systems);
    expect(MaintenanceFactsSchema.parse(facts)).toEqual(facts);
    expect(facts).toEqual({
      kind: 'maintenance.started',
      window: {
        id: window.windowId,
        title: 'DB upgrade',
        startAt: window.startAt,
        endAt: window.endAt,
      },
      systems,
    });
  });

  it('read an event published before the period was carried', () => {
    const { startAt: _startAt, endAt: _endAt, ...older } = window;
    expect(windowFacts('maintenance.ended', older, []).window).toMatchObject({
      startAt: null,
      endAt: null,
    });
  });

  it('register a source for windows starting and ending, heard by maintenance subscriptions', () => {
    expect(
      windowSources.map((source) => [source.id, source.event.name, source.subscriptionKind]),
    ).toEqual([
      ['started', 'maintenance.started', 'maintenance'],
      ['ended', 'maintenance.ended', 'maintenance'],
    ]);
  });
});
