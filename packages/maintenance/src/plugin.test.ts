import { randomUUID } from 'node:crypto';
import { catalogAccess, catalogContract, catalogPlugin } from '@checkline/catalog';
import type { AnyPlugin } from '@checkline/core';
import { bootPlugins, silentLogger } from '@checkline/core';
import { createPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { eventOutbox } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { maintenanceAccess } from './access.ts';
import { maintenanceContract } from './contract.ts';
import { windows } from './db/schema.ts';
import type { MaintenanceEvent } from './events.ts';
import { maintenanceEnded, maintenanceStarted } from './events.ts';
import { createMaintenancePlugin } from './plugin.ts';
import { announceTransitions } from './ticker.ts';

type Harness = ReturnType<typeof createPluginHarness>;
type Announced = { event: 'started' | 'ended'; payload: MaintenanceEvent };

let database: DatabaseHandle;
let harness: Harness;
let plugin: ReturnType<typeof createMaintenancePlugin>;
const announced: Announced[] = [];

const manager = testPrincipal([maintenanceAccess.read, maintenanceAccess.manage]);
const cataloguer = testPrincipal([catalogAccess.read, catalogAccess.manage]);
const maintenance = () => harness.client('maintenance', maintenanceContract, manager);
const catalog = () => harness.client('catalog', catalogContract, cataloguer);

const t0 = new Date(Date.now() + 24 * 3_600_000);
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

/** Drives register, init and ready as the server does; the harness alone does not. */
async function startPlugins(target: Harness, plugins: readonly AnyPlugin[]) {
  await bootPlugins({ plugins, runtime: target.runtime, db: database.db, logger: silentLogger });
}

function record(target: Harness, into: Announced[]) {
  target.runtime.events.subscribe(maintenanceStarted, (payload) => {
    into.push({ event: 'started', payload });
  });
  target.runtime.events.subscribe(maintenanceEnded, (payload) => {
    into.push({ event: 'ended', payload });
  });
}

async function newSystem() {
  return (await catalog().createSystem({ name: `system-${randomUUID()}` })).id;
}

async function schedule(startMinutes: number, endMinutes: number, systemIds?: string[]) {
  return maintenance().scheduleWindow({
    title: `window ${startMinutes}..${endMinutes}`,
    systemIds: systemIds ?? [await newSystem()],
    startAt: at(startMinutes).toISOString(),
    endAt: at(endMinutes).toISOString(),
  });
}

async function tickAt(minutes: number) {
  await plugin.tick(at(minutes));
  await harness.runtime.events.settled();
}

beforeAll(async () => {
  // The interval is never reached here: these tests drive `tick` with explicit times.
  plugin = createMaintenancePlugin({ tickIntervalMs: 3_600_000 });
  database = await createTestDatabase([
    { pluginId: 'catalog', folder: catalogPlugin.migrationsFolder! },
    { pluginId: 'maintenance', folder: plugin.migrationsFolder! },
  ]);
  const plugins = [catalogPlugin, plugin];
  harness = createPluginHarness(plugins, database.db);
  record(harness, announced);
  await startPlugins(harness, plugins);
});
afterAll(async () => {
  await plugin.stop?.();
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(windows);
  announced.length = 0;
});

describe('announcing maintenance', () => {
  describe('works', () => {
    it('announces a window start and end once each as time passes', async () => {
      const window = await schedule(60, 120);
      const payload = {
        windowId: window.id,
        systemIds: window.systemIds,
        title: window.title,
        startAt: window.startAt,
        endAt: window.endAt,
      };
      await tickAt(0);
      expect(announced).toEqual([]);
      await tickAt(60);
      await tickAt(61);
      expect(announced).toEqual([{ event: 'started', payload }]);
      await tickAt(119);
      await tickAt(120);
      await tickAt(500);
      expect(announced).toEqual([
        { event: 'started', payload },
        { event: 'ended', payload },
      ]);
    });

    it('writes each announcement to the event outbox and dispatches it', async () => {
      const window = await schedule(10, 20);
      await tickAt(30);
      const written = await database.db
        .select()
        .from(eventOutbox)
        .where(sql`${eventOutbox.payload}->>'windowId' = ${window.id}`);
      const rows = written.map((row) => [row.type, row.dispatchedAt !== null]);
      expect(rows.sort()).toEqual([
        ['maintenance.ended', true],
        ['maintenance.started', true],
        ['maintenance.window_changed', true],
      ]);
    });

    it('announces start then end when both pass between two ticks', async () => {
      const window = await schedule(10, 20);
      await tickAt(30);
      expect(announced.map((entry) => [entry.event, entry.payload.windowId])).toEqual([
        ['started', window.id],
        ['ended', window.id],
      ]);
    });

    it('announces each transition once when two server processes tick at the same moment', async () => {
      const other = { db: database.db, events: harness.runtime.events };
      const windowsToStart = [await schedule(5, 50), await schedule(6, 50), await schedule(7, 8)];
      const results = await Promise.all([plugin.tick(at(10)), announceTransitions(other, at(10))]);
      await harness.runtime.events.settled();
      const started = results.flatMap((result) => result.started.map((e) => e.windowId));
      const ended = results.flatMap((result) => result.ended.map((e) => e.windowId));
      expect(started.sort()).toEqual(windowsToStart.map((w) => w.id).sort());
      expect(ended).toEqual([windowsToStart[2]!.id]);
      expect(announced).toHaveLength(4);
    });

    it('never announces a window scheduled wholly in the past', async () => {
      await maintenance().scheduleWindow({
        title: 'Last night',
        systemIds: [await newSystem()],
        startAt: new Date(Date.now() - 7_200_000).toISOString(),
        endAt: new Date(Date.now() - 3_600_000).toISOString(),
      });
      await tickAt(1_000);
      expect(announced).toEqual([]);
    });

    it('announces a fresh cycle after an ended window is extended into the future', async () => {
      const systemId = await newSystem();
      const window = await maintenance().scheduleWindow({
        title: 'Extended',
        systemIds: [systemId],
        startAt: new Date(Date.now() - 60_000).toISOString(),
        endAt: new Date(Date.now() + 60_000).toISOString(),
      });
      await plugin.tick(new Date(Date.now() + 120_000));
      await harness.runtime.events.settled();
      expect(announced.map((entry) => entry.event)).toEqual(['started', 'ended']);
      await maintenance().updateWindow({ id: window.id, endAt: at(60).toISOString() });
      await tickAt(0);
      await tickAt(60);
      expect(announced.map((entry) => entry.event)).toEqual([
        'started',
        'ended',
        'started',
        'ended',
      ]);
    });

    it('announces the end of an active window that is deleted, and nothing for an upcoming one', async () => {
      const active = await schedule(0, 60);
      const upcoming = await schedule(100, 200);
      await tickAt(1);
      announced.length = 0;
      await maintenance().deleteWindow({ id: upcoming.id });
      await maintenance().deleteWindow({ id: active.id });
      await harness.runtime.events.settled();
      expect(announced).toEqual([
        {
          event: 'ended',
          payload: {
            windowId: active.id,
            systemIds: active.systemIds,
            title: active.title,
            startAt: active.startAt,
            endAt: active.endAt,
          },
        },
      ]);
      await tickAt(300);
      expect(announced).toHaveLength(1);
    });

    it('ticks on its interval from ready until stop, with its injected clock', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        let now = at(0);
        const ticking = createMaintenancePlugin({ tickIntervalMs: 1_000, now: () => now });
        const own = createPluginHarness([catalogPlugin, ticking], database.db);
        const heard: Announced[] = [];
        record(own, heard);
        await startPlugins(own, [catalogPlugin, ticking]);
        await schedule(10, 20);
        now = at(15);
        await vi.advanceTimersByTimeAsync(1_000);
        await vi.waitFor(() => expect(heard.map((entry) => entry.event)).toEqual(['started']));
        now = at(25);
        await vi.advanceTimersByTimeAsync(1_000);
        await vi.waitFor(() =>
          expect(heard.map((entry) => entry.event)).toEqual(['started', 'ended']),
        );
        await ticking.stop?.();
        // Stopped: a window that starts and ends later is never announced.
        await schedule(30, 40);
        now = at(35);
        await vi.advanceTimersByTimeAsync(1_000);
        now = at(45);
        await vi.advanceTimersByTimeAsync(1_000);
        expect(heard).toHaveLength(2);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('rejects bad input', () => {
    it('refuses to tick before the plugin is ready', async () => {
      await expect(createMaintenancePlugin().tick()).rejects.toThrow(
        'The maintenance ticker runs only between ready and stop',
      );
    });
  });
});

describe('deleting a catalog system', () => {
  it('detaches the system from every window and keeps the others', async () => {
    const [gone, kept] = [await newSystem(), await newSystem()];
    const shared = await schedule(10, 20, [gone, kept]);
    const only = await schedule(30, 40, [gone]);
    await catalog().deleteSystem({ id: gone });
    await harness.runtime.events.settled();
    const { windows: listed } = await maintenance().getWindows({});
    expect(listed.map((w) => [w.id, w.systemIds])).toEqual([
      [shared.id, [kept]],
      [only.id, []],
    ]);
  });
});
