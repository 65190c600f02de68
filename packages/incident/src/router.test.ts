import { randomUUID } from 'node:crypto';
import { catalogAccess, catalogContract, catalogPlugin } from '@checkline/catalog';
import { servicePrincipal } from '@checkline/core/contract';
import { createPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { incidentAccess } from './access.ts';
import { incidentContract } from './contract.ts';
import { incidents } from './db/schema.ts';
import { incidentPlugin } from './plugin.ts';

let database: DatabaseHandle;
let harness: ReturnType<typeof createPluginHarness>;

const managerId = '7d4c8b52-3f0e-4a57-9c43-0f4b3f1a2b01';
const manager = testPrincipal([incidentAccess.read, incidentAccess.manage], { id: managerId });
const operator = testPrincipal([incidentAccess.read, incidentAccess.manage], {
  kind: 'user',
  id: '1c9a0e6e-59b4-4a4f-8a3c-3a0b1f2c4d02',
});
const reader = testPrincipal([incidentAccess.read]);
const nobody = testPrincipal([]);
const anonymous = testPrincipal([], { kind: 'anonymous', id: null as never });
const cataloguer = testPrincipal([catalogAccess.read, catalogAccess.manage]);

const as = (principal: ReturnType<typeof testPrincipal>) =>
  harness.client('incident', incidentContract, principal);

const unknownId = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';

async function newSystem() {
  const catalog = harness.client('catalog', catalogContract, cataloguer);
  return (await catalog.createSystem({ name: `system-${randomUUID()}` })).id;
}

beforeAll(async () => {
  database = await createTestDatabase([
    { pluginId: 'catalog', folder: catalogPlugin.migrationsFolder! },
    { pluginId: 'incident', folder: incidentPlugin.migrationsFolder! },
  ]);
  harness = createPluginHarness([catalogPlugin, incidentPlugin], database.db);
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(incidents);
});

describe('incidents', () => {
  describe('works', () => {
    it('opens an incident as investigating with a first timeline entry by the caller', async () => {
      const [a, b] = [await newSystem(), await newSystem()];
      const incident = await as(manager).createIncident({
        title: 'Checkout errors',
        severity: 'major',
        systemIds: [b, a],
      });
      expect(incident).toMatchObject({
        title: 'Checkout errors',
        description: '',
        severity: 'major',
        status: 'investigating',
        systemIds: [a, b].sort(),
        resolvedAt: null,
        timeline: [
          {
            status: 'investigating',
            message: null,
            authorId: managerId,
            authorKind: 'application',
          },
        ],
      });
      expect(new Date(incident.createdAt).toISOString()).toBe(incident.createdAt);
      await expect(as(reader).getIncident({ id: incident.id })).resolves.toEqual(incident);
    });

    it('opens an incident without systems', async () => {
      const incident = await as(manager).createIncident({
        title: 'Slow logins',
        severity: 'minor',
        description: 'Some users wait 10 s',
      });
      expect(incident).toMatchObject({ systemIds: [], description: 'Some users wait 10 s' });
    });

    it('walks the lifecycle: message, status change, resolve, reopen', async () => {
      const { id } = await as(manager).createIncident({ title: 'Outage', severity: 'critical' });

      const noted = await as(operator).updateIncident({ id, message: 'Looking at the database' });
      expect(noted.status).toBe('investigating');
      expect(noted.timeline.at(-1)).toMatchObject({
        status: 'investigating',
        message: 'Looking at the database',
        authorId: operator.id,
        authorKind: 'user',
      });

      const identified = await as(manager).updateIncident({ id, status: 'identified' });
      expect(identified.timeline.at(-1)).toMatchObject({ status: 'identified', message: null });

      const resolved = await as(manager).updateIncident({
        id,
        status: 'resolved',
        message: 'Failover done',
      });
      expect(resolved.status).toBe('resolved');
      expect(resolved.resolvedAt).not.toBeNull();
      expect(resolved.resolvedAt! >= resolved.createdAt).toBe(true);

      const reopened = await as(manager).updateIncident({ id, status: 'monitoring' });
      expect(reopened).toMatchObject({ status: 'monitoring', resolvedAt: null });
      expect(reopened.timeline.map((entry) => [entry.status, entry.message])).toEqual([
        ['investigating', null],
        ['investigating', 'Looking at the database'],
        ['identified', null],
        ['resolved', 'Failover done'],
        ['monitoring', null],
      ]);
      const times = reopened.timeline.map((entry) => entry.createdAt);
      expect(times).toEqual([...times].sort());
    });

    it('changes fields without a timeline entry when neither status nor message is given', async () => {
      const system = await newSystem();
      const created = await as(manager).createIncident({ title: 'Typo', severity: 'minor' });
      const updated = await as(manager).updateIncident({
        id: created.id,
        title: 'Disk full',
        severity: 'major',
        description: 'on db-2',
        systemIds: [system],
        status: 'investigating',
      });
      expect(updated).toMatchObject({
        title: 'Disk full',
        severity: 'major',
        description: 'on db-2',
        systemIds: [system],
        status: 'investigating',
      });
      expect(updated.timeline).toHaveLength(1);
      expect(updated.updatedAt >= created.updatedAt).toBe(true);
    });

    it('records the service principal as author when another plugin writes', async () => {
      const asService = harness.client(
        'incident',
        incidentContract,
        servicePrincipal('healthcheck'),
      );
      const incident = await asService.createIncident({ title: 'Auto', severity: 'minor' });
      expect(incident.timeline[0]).toMatchObject({
        authorId: 'healthcheck',
        authorKind: 'service',
      });
    });

    it('lists unresolved incidents newest first, by system when asked', async () => {
      const system = await newSystem();
      const first = await as(manager).createIncident({ title: 'first', severity: 'minor' });
      const second = await as(manager).createIncident({
        title: 'second',
        severity: 'major',
        systemIds: [system],
      });
      const third = await as(manager).createIncident({ title: 'third', severity: 'minor' });
      await as(manager).updateIncident({ id: third.id, status: 'resolved' });
      const { incidents: open } = await as(reader).getIncidents({});
      expect(open.map((incident) => incident.id)).toEqual([second.id, first.id]);
      expect(open[0]).not.toHaveProperty('timeline');
      const { incidents: onSystem } = await as(reader).getIncidents({ systemId: system });
      expect(onSystem.map((incident) => incident.id)).toEqual([second.id]);
    });

    it('pages through incidents newest first, with and without resolved ones', async () => {
      const created = [];
      for (const title of ['a', 'b', 'c', 'd', 'e']) {
        created.push(await as(manager).createIncident({ title, severity: 'minor' }));
      }
      for (const incident of [created[1]!, created[3]!]) {
        await as(manager).updateIncident({ id: incident.id, status: 'resolved' });
      }
      const titles = (page: { incidents: { title: string }[] }) =>
        page.incidents.map((incident) => incident.title);
      expect(titles(await as(reader).listIncidents({}))).toEqual(['e', 'c', 'a']);

      // By cursor to the end: a new incident opened between pages does not shift the next page.
      const first = await as(reader).listIncidents({ includeResolved: true, limit: 2 });
      expect(titles(first)).toEqual(['e', 'd']);
      await as(manager).createIncident({ title: 'f', severity: 'minor' });
      const second = await as(reader).listIncidents({
        includeResolved: true,
        limit: 2,
        cursor: first.nextCursor!,
      });
      expect(titles(second)).toEqual(['c', 'b']);
      const last = await as(reader).listIncidents({
        includeResolved: true,
        limit: 2,
        cursor: second.nextCursor!,
      });
      expect([titles(last), last.nextCursor]).toEqual([['a'], null]);
      // One paging style: `offset` is gone, and an input naming it is refused, not ignored.
      await expect(as(reader).listIncidents({ offset: 2 } as never)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      const { incidents: open } = await as(reader).getIncidents({ limit: 1 });
      expect(open.map((incident) => incident.title)).toEqual(['f']);
    });

    it('filters the paged list by system', async () => {
      const system = await newSystem();
      const affected = await as(manager).createIncident({
        title: 'affected',
        severity: 'major',
        systemIds: [system],
      });
      await as(manager).createIncident({ title: 'elsewhere', severity: 'major' });
      await as(manager).updateIncident({ id: affected.id, status: 'resolved' });
      await expect(as(reader).listIncidents({ systemId: system })).resolves.toEqual({
        incidents: [],
        nextCursor: null,
      });
      const page = await as(reader).listIncidents({ systemId: system, includeResolved: true });
      expect(page.incidents.map((incident) => incident.id)).toEqual([affected.id]);
    });

    it('deletes an incident with its timeline', async () => {
      const incident = await as(manager).createIncident({ title: 'gone', severity: 'minor' });
      await expect(as(manager).deleteIncident({ id: incident.id })).resolves.toEqual({
        id: incident.id,
        deleted: true,
      });
      await expect(as(reader).getIncident({ id: incident.id })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      await expect(as(reader).listIncidents({ includeResolved: true })).resolves.toEqual({
        incidents: [],
        nextCursor: null,
      });
    });
  });

  describe('rejects bad input', () => {
    it('answers NOT_FOUND naming a system the catalog does not know, and stores nothing', async () => {
      const known = await newSystem();
      await expect(
        as(manager).createIncident({
          title: 'x',
          severity: 'minor',
          systemIds: [known, unknownId],
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknownId} not found` });
      await expect(as(reader).listIncidents({ includeResolved: true })).resolves.toMatchObject({
        incidents: [],
      });
      const incident = await as(manager).createIncident({
        title: 'kept',
        severity: 'minor',
        systemIds: [known],
      });
      await expect(
        as(manager).updateIncident({ id: incident.id, systemIds: [unknownId], status: 'resolved' }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknownId} not found` });
      await expect(as(reader).getIncident({ id: incident.id })).resolves.toEqual(incident);
    });

    it('answers NOT_FOUND for an unknown incident', async () => {
      for (const attempt of [
        () => as(reader).getIncident({ id: unknownId }),
        () => as(manager).updateIncident({ id: unknownId, status: 'resolved' }),
        () => as(manager).deleteIncident({ id: unknownId }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'NOT_FOUND',
          status: 404,
          message: `Incident ${unknownId} not found`,
        });
      }
    });

    it('answers BAD_REQUEST for unknown severities and statuses, empty text and bad ids', async () => {
      const { id } = await as(manager).createIncident({ title: 'ok', severity: 'minor' });
      for (const attempt of [
        () => as(manager).createIncident({ title: 'x', severity: 'fatal' as never }),
        () => as(manager).createIncident({ title: '  ', severity: 'minor' }),
        () => as(manager).createIncident({ title: 'x', severity: 'minor', systemIds: ['nope'] }),
        () => as(manager).updateIncident({ id, status: 'closed' as never }),
        () => as(manager).updateIncident({ id, message: '   ' }),
        () => as(reader).getIncident({ id: 'not-a-uuid' }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'BAD_REQUEST', status: 400 });
      }
    });

    it('answers BAD_REQUEST for a page size outside 1..1000 or a bad cursor', async () => {
      const inputs = [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { cursor: '?' }];
      for (const input of inputs) {
        await expect(as(reader).listIncidents(input)).rejects.toMatchObject({
          code: 'BAD_REQUEST',
        });
      }
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses reads to a caller without incident.incident.read', async () => {
      for (const attempt of [
        () => as(nobody).getIncidents({}),
        () => as(nobody).listIncidents({}),
        () => as(nobody).getIncident({ id: unknownId }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'FORBIDDEN',
          message: 'Missing access: incident.incident.read',
        });
      }
    });

    it('refuses changes to a reader and leaves the incident as it was', async () => {
      const incident = await as(manager).createIncident({ title: 'mine', severity: 'minor' });
      for (const attempt of [
        () => as(reader).createIncident({ title: 'x', severity: 'minor' }),
        () => as(reader).updateIncident({ id: incident.id, status: 'resolved' }),
        () => as(reader).deleteIncident({ id: incident.id }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'FORBIDDEN',
          message: 'Missing access: incident.incident.manage',
        });
      }
      await expect(as(reader).getIncident({ id: incident.id })).resolves.toEqual(incident);
    });

    it('answers UNAUTHORIZED to anonymous callers', async () => {
      await expect(as(anonymous).getIncidents({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    });
  });
});
