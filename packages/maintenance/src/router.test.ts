import { randomUUID } from 'node:crypto';
import { catalogAccess, catalogContract, catalogPlugin } from '@checkline/catalog';
import { servicePrincipal } from '@checkline/core/contract';
import { createPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { maintenanceAccess } from './access.ts';
import { maintenanceContract } from './contract.ts';
import { windows } from './db/schema.ts';
import { createMaintenancePlugin } from './plugin.ts';

let database: DatabaseHandle;
let harness: ReturnType<typeof createPluginHarness>;

const manager = testPrincipal([maintenanceAccess.read, maintenanceAccess.manage]);
const reader = testPrincipal([maintenanceAccess.read]);
const nobody = testPrincipal([]);
const anonymous = testPrincipal([], { kind: 'anonymous', id: null as never });
const cataloguer = testPrincipal([catalogAccess.read, catalogAccess.manage]);

const as = (principal: ReturnType<typeof testPrincipal>) =>
  harness.client('maintenance', maintenanceContract, principal);

const unknownId = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

async function newSystem() {
  const catalog = harness.client('catalog', catalogContract, cataloguer);
  return (await catalog.createSystem({ name: `system-${randomUUID()}` })).id;
}

beforeAll(async () => {
  const plugin = createMaintenancePlugin();
  database = await createTestDatabase([
    { pluginId: 'catalog', folder: catalogPlugin.migrationsFolder! },
    { pluginId: 'maintenance', folder: plugin.migrationsFolder! },
  ]);
  harness = createPluginHarness([catalogPlugin, plugin], database.db);
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(windows);
});

describe('maintenance windows', () => {
  describe('works', () => {
    it('schedules a window and lists it among the upcoming ones', async () => {
      const [a, b] = [await newSystem(), await newSystem()];
      const window = await as(manager).scheduleWindow({
        title: 'Database upgrade',
        systemIds: [b, a, b],
        startAt: inHours(1),
        endAt: inHours(2),
      });
      expect(window).toMatchObject({
        title: 'Database upgrade',
        description: '',
        systemIds: [a, b].sort(),
      });
      expect(new Date(window.startAt).toISOString()).toBe(window.startAt);
      await expect(as(reader).getWindows({})).resolves.toEqual({
        windows: [window],
        nextCursor: null,
      });
    });

    it('normalises instants given with an offset to UTC', async () => {
      const window = await as(manager).scheduleWindow({
        title: 'Offset',
        systemIds: [await newSystem()],
        startAt: '2999-01-01T10:00:00+02:00',
        endAt: '2999-01-01T12:00:00+02:00',
      });
      expect(window.startAt).toBe('2999-01-01T08:00:00.000Z');
      expect(window.endAt).toBe('2999-01-01T10:00:00.000Z');
    });

    it('shows past windows only when asked and filters by system', async () => {
      const [a, b] = [await newSystem(), await newSystem()];
      const past = await as(manager).scheduleWindow({
        title: 'Past',
        systemIds: [a],
        startAt: inHours(-3),
        endAt: inHours(-2),
      });
      const active = await as(manager).scheduleWindow({
        title: 'Active',
        systemIds: [a, b],
        startAt: inHours(-1),
        endAt: inHours(1),
      });
      const upcoming = await as(manager).scheduleWindow({
        title: 'Upcoming',
        systemIds: [b],
        startAt: inHours(5),
        endAt: inHours(6),
      });
      const titles = async (input: { systemId?: string; includePast?: boolean }) =>
        (await as(reader).getWindows(input)).windows.map((w) => w.title);
      expect(await titles({})).toEqual([active.title, upcoming.title]);
      expect(await titles({ includePast: true })).toEqual([
        past.title,
        active.title,
        upcoming.title,
      ]);
      expect(await titles({ systemId: a })).toEqual([active.title]);
      expect(await titles({ systemId: a, includePast: true })).toEqual([past.title, active.title]);

      const first = await as(reader).getWindows({ includePast: true, limit: 2 });
      const rest = await as(reader).getWindows({ includePast: true, cursor: first.nextCursor! });
      expect([...first.windows, ...rest.windows].map((w) => w.title)).toEqual([
        past.title,
        active.title,
        upcoming.title,
      ]);
      expect(rest.nextCursor).toBeNull();
    });

    it('answers the windows active now that cover any of the given systems', async () => {
      const [a, b, c, d] = [
        await newSystem(),
        await newSystem(),
        await newSystem(),
        await newSystem(),
      ];
      const onA = await as(manager).scheduleWindow({
        title: 'On a and d',
        systemIds: [a, d],
        startAt: inHours(-1),
        endAt: inHours(1),
      });
      const onB = await as(manager).scheduleWindow({
        title: 'On b',
        systemIds: [b],
        startAt: inHours(-2),
        endAt: inHours(2),
      });
      await as(manager).scheduleWindow({
        title: 'Upcoming on a',
        systemIds: [a],
        startAt: inHours(1),
        endAt: inHours(2),
      });
      await as(manager).scheduleWindow({
        title: 'Active on c only',
        systemIds: [c],
        startAt: inHours(-1),
        endAt: inHours(1),
      });
      const { windows: active } = await as(reader).getBulkActiveWindows({ systemIds: [a, b] });
      expect(active).toEqual([onB, onA]);
      expect(active[1]?.systemIds).toEqual([a, d].sort());
      await expect(as(reader).getBulkActiveWindows({ systemIds: [] })).resolves.toEqual({
        windows: [],
      });
    });

    it('serves the bulk lookup to the service principal, as healthcheck calls it', async () => {
      const system = await newSystem();
      const window = await as(manager).scheduleWindow({
        title: 'Now',
        systemIds: [system],
        startAt: inHours(-1),
        endAt: inHours(1),
      });
      const asService = harness.client(
        'maintenance',
        maintenanceContract,
        servicePrincipal('healthcheck'),
      );
      const ids = [system, ...Array.from({ length: 499 }, () => randomUUID())];
      await expect(asService.getBulkActiveWindows({ systemIds: ids })).resolves.toEqual({
        windows: [window],
      });
    });

    it('updates only the given fields and replaces the systems', async () => {
      const [a, b] = [await newSystem(), await newSystem()];
      const window = await as(manager).scheduleWindow({
        title: 'Patch',
        description: 'kernel',
        systemIds: [a],
        startAt: inHours(1),
        endAt: inHours(2),
      });
      const later = inHours(3);
      const updated = await as(manager).updateWindow({
        id: window.id,
        endAt: later,
        systemIds: [b],
      });
      expect(updated).toMatchObject({
        title: 'Patch',
        description: 'kernel',
        startAt: window.startAt,
        endAt: later,
        systemIds: [b],
      });
      expect(updated.updatedAt >= window.updatedAt).toBe(true);
      const renamed = await as(manager).updateWindow({ id: window.id, title: 'Renamed' });
      expect(renamed).toMatchObject({ title: 'Renamed', systemIds: [b], endAt: later });
    });

    it('deletes a window', async () => {
      const window = await as(manager).scheduleWindow({
        title: 'Gone',
        systemIds: [await newSystem()],
        startAt: inHours(1),
        endAt: inHours(2),
      });
      await expect(as(manager).deleteWindow({ id: window.id })).resolves.toEqual({
        id: window.id,
        deleted: true,
      });
      await expect(as(reader).getWindows({ includePast: true })).resolves.toEqual({
        windows: [],
        nextCursor: null,
      });
    });
  });

  describe('rejects bad input', () => {
    it('answers BAD_REQUEST on endAt when a window would not start before it ends', async () => {
      const system = await newSystem();
      const start = inHours(1);
      for (const endAt of [start, inHours(0.5)]) {
        await expect(
          as(manager).scheduleWindow({ title: 'x', systemIds: [system], startAt: start, endAt }),
        ).rejects.toMatchObject({
          code: 'BAD_REQUEST',
          status: 400,
          data: { issues: [{ path: 'endAt', message: 'Must be after startAt' }] },
        });
      }
      await expect(as(reader).getWindows({ includePast: true })).resolves.toEqual({
        windows: [],
        nextCursor: null,
      });
    });

    it('answers BAD_REQUEST when an update and the stored values together invert the window', async () => {
      const window = await as(manager).scheduleWindow({
        title: 'Stored',
        systemIds: [await newSystem()],
        startAt: inHours(2),
        endAt: inHours(3),
      });
      await expect(
        as(manager).updateWindow({ id: window.id, endAt: inHours(1) }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', data: { issues: [{ path: 'endAt' }] } });
      await expect(
        as(manager).updateWindow({ id: window.id, startAt: window.endAt }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      const { windows: listed } = await as(reader).getWindows({});
      expect(listed).toEqual([window]);
    });

    it('answers NOT_FOUND naming a system the catalog does not know, and stores nothing', async () => {
      const known = await newSystem();
      await expect(
        as(manager).scheduleWindow({
          title: 'x',
          systemIds: [known, unknownId],
          startAt: inHours(1),
          endAt: inHours(2),
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknownId} not found` });
      const window = await as(manager).scheduleWindow({
        title: 'kept',
        systemIds: [known],
        startAt: inHours(1),
        endAt: inHours(2),
      });
      await expect(
        as(manager).updateWindow({ id: window.id, systemIds: [unknownId] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknownId} not found` });
      await expect(as(reader).getWindows({})).resolves.toEqual({
        windows: [window],
        nextCursor: null,
      });
    });

    it('answers NOT_FOUND for an unknown window', async () => {
      await expect(as(manager).updateWindow({ id: unknownId, title: 'x' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: `Maintenance window ${unknownId} not found`,
      });
      await expect(as(manager).deleteWindow({ id: unknownId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('answers BAD_REQUEST for an empty title, no systems, bad ids, bad instants and 501 ids', async () => {
      const system = await newSystem();
      const valid = { title: 'ok', systemIds: [system], startAt: inHours(1), endAt: inHours(2) };
      for (const input of [
        { ...valid, title: '  ' },
        { ...valid, systemIds: [] },
        { ...valid, systemIds: ['not-a-uuid'] },
        { ...valid, startAt: 'tomorrow' },
      ]) {
        await expect(as(manager).scheduleWindow(input)).rejects.toMatchObject({
          code: 'BAD_REQUEST',
        });
      }
      const tooMany = Array.from({ length: 501 }, () => randomUUID());
      await expect(as(reader).getBulkActiveWindows({ systemIds: tooMany })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses reads to a caller without maintenance.maintenance.read', async () => {
      for (const attempt of [
        () => as(nobody).getWindows({}),
        () => as(nobody).getBulkActiveWindows({ systemIds: [] }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'FORBIDDEN',
          message: 'Missing access: maintenance.maintenance.read',
        });
      }
    });

    it('refuses changes to a reader', async () => {
      const window = await as(manager).scheduleWindow({
        title: 'Mine',
        systemIds: [await newSystem()],
        startAt: inHours(1),
        endAt: inHours(2),
      });
      for (const attempt of [
        () =>
          as(reader).scheduleWindow({
            title: 'x',
            systemIds: window.systemIds,
            startAt: inHours(1),
            endAt: inHours(2),
          }),
        () => as(reader).updateWindow({ id: window.id, title: 'x' }),
        () => as(reader).deleteWindow({ id: window.id }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'FORBIDDEN',
          message: 'Missing access: maintenance.maintenance.manage',
        });
      }
      await expect(as(reader).getWindows({})).resolves.toEqual({
        windows: [window],
        nextCursor: null,
      });
    });

    it('answers UNAUTHORIZED to anonymous callers', async () => {
      await expect(as(anonymous).getWindows({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    });
  });
});
