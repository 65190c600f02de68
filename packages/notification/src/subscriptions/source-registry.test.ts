import type { NotificationSource, SystemDirectory } from '@checkline/notification-node';
import { defineEvent } from '@checkline/core/contract';
import { describe, expect, it } from 'vitest';
import { NotificationSources } from './source-registry.ts';

const directory = (): SystemDirectory => ({
  systemsNamed: async () => [],
  groupsOfSystems: async () => new Map(),
  readableBy: async () => new Set(),
  assertSystemReadable: async () => {},
  assertGroupReadable: async () => {},
});

const source = (id: string, systems: SystemDirectory): NotificationSource<{ id: string }> => ({
  id,
  event: defineEvent<{ id: string }>(`demo.${id.replace(/-/g, '_')}`),
  subscriptionKind: 'incident',
  readRule: 'demo.demo.read',
  directory: systems,
  systemIds: () => [],
  facts: () => ({
    kind: 'maintenance.started',
    window: { id: 'w', title: 't', startAt: null, endAt: null },
    systems: [],
  }),
});

describe('the notification source registry', () => {
  describe('works', () => {
    it('lists sources under qualified ids and answers their one system directory', () => {
      const sources = new NotificationSources();
      expect(sources.directory()).toBeUndefined();
      const shared = directory();
      sources.register('incident', source('created', shared));
      sources.register('maintenance', source('started', shared));
      expect(sources.list().map((entry) => entry.qualifiedId)).toEqual([
        'incident.created',
        'maintenance.started',
      ]);
      expect(sources.directory()).toBe(shared);
    });
  });

  describe('refuses', () => {
    it('a source naming another system directory than the ones before it', () => {
      const sources = new NotificationSources();
      sources.register('incident', source('created', directory()));
      expect(() => sources.register('maintenance', source('started', directory()))).toThrow(
        /maintenance\.started names another system directory/,
      );
    });

    it('the same id twice, and any source once start-up is done', () => {
      const sources = new NotificationSources();
      const shared = directory();
      sources.register('incident', source('created', shared));
      expect(() => sources.register('incident', source('created', shared))).toThrow(
        /already registered/,
      );
      sources.freeze();
      expect(() => sources.register('incident', source('updated', shared))).toThrow(
        /after start-up/,
      );
    });
  });
});
