import type { Database, DatabaseHandle } from '@checkline/db';
import { connectPostgres, eventOutbox } from '@checkline/db';
import { createTestDatabase, testDatabaseUrl } from '@checkline/db/testing';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventBusSettings } from './event-bus.ts';
import { EventBus, retryDelayMs } from './event-bus.ts';
import { enqueueEvent } from './event-outbox.ts';
import { defineEvent } from './events.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';

const thingChanged = defineEvent<{ id: string }>('demo.thing_changed');
const otherThing = defineEvent<{ id: string }>('demo.other_thing');

let database: DatabaseHandle;
let db: Database;
const buses: EventBus[] = [];

/** A bus on `on` whose clock runs `offsetMs` ahead of the wall clock. */
function busFor(
  options: {
    on?: Database;
    offsetMs?: number;
    settings?: EventBusSettings;
    logger?: Logger;
  } = {},
) {
  const bus = new EventBus({
    db: options.on ?? db,
    logger: options.logger ?? silentLogger,
    now: () => new Date(Date.now() + (options.offsetMs ?? 0)),
    settings: options.settings,
  });
  buses.push(bus);
  return bus;
}

const rowOf = async (id: string) =>
  (await db.select().from(eventOutbox).where(eq(eventOutbox.id, id)))[0]!;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
beforeEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.stop()));
  await db.delete(eventOutbox);
});
afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.stop()));
  await database.close();
});

describe('EventBus works', () => {
  it('delivers a payload to every subscriber of its type, and only of its type, with its event id', async () => {
    const bus = busFor();
    const seen: string[] = [];
    const ids = new Set<string>();
    bus.subscribe(thingChanged, ({ id }, { eventId }) => {
      seen.push(`a:${id}`);
      ids.add(eventId);
    });
    bus.subscribe(thingChanged, async ({ id }, { eventId }) => {
      seen.push(`b:${id}`);
      ids.add(eventId);
    });
    bus.subscribe(otherThing, () => void seen.push('wrong'));
    bus.publish(thingChanged, { id: '1' });
    await bus.settled();
    expect(seen.sort()).toEqual(['a:1', 'b:1']);
    expect(ids.size).toBe(1);
    const row = await rowOf([...ids][0]!);
    expect(row).toMatchObject({ type: 'demo.thing_changed', payload: { id: '1' }, attempts: 1 });
    expect(row.dispatchedAt).not.toBeNull();
  });

  it('hands each subscriber the database, a logger naming the event, and the bus, as it runs', async () => {
    const logged: unknown[] = [];
    const recording: Logger = {
      ...silentLogger,
      child: (bindings) => ({
        ...silentLogger,
        info: (entry) => void logged.push({ bindings, entry }),
      }),
    };
    const bus = busFor({ logger: recording });
    const counted: number[] = [];
    bus.subscribe(thingChanged, async ({ id }, context) => {
      // The subscriber writes with the database it is given, and dispatches what it wrote.
      const rows = await context.db
        .select()
        .from(eventOutbox)
        .where(eq(eventOutbox.id, context.eventId));
      counted.push(rows.length);
      context.logger.info({ id }, 'seen');
      context.events.dispatch([await enqueueEvent(context.db, otherThing, { id })]);
    });
    const followUps: string[] = [];
    bus.subscribe(otherThing, ({ id }) => void followUps.push(id));
    bus.publish(thingChanged, { id: '7' });
    await bus.settled();
    await bus.settled();
    expect(counted).toEqual([1]);
    expect(followUps).toEqual(['7']);
    expect(logged).toEqual([
      {
        bindings: { event: 'demo.thing_changed', eventId: expect.any(String) as unknown },
        entry: { id: '7' },
      },
    ]);
  });

  it('never dispatches an event written in a transaction that rolled back', async () => {
    const bus = busFor({ offsetMs: 3_600_000 });
    const seen: string[] = [];
    bus.subscribe(thingChanged, ({ id }) => void seen.push(id));
    let written = '';
    await expect(
      db.transaction(async (tx) => {
        written = await enqueueEvent(tx, thingChanged, { id: 'undone' });
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    bus.dispatch([written]);
    await bus.tick();
    await bus.settled();
    expect(seen).toEqual([]);
    expect(await db.select().from(eventOutbox)).toEqual([]);
  });

  it('leaves a fresh event to its writer, then another dispatcher takes it when the writer died after commit', async () => {
    const id = await db.transaction((tx) => enqueueEvent(tx, thingChanged, { id: 'orphan' }));
    // The writer "dies" here: its immediate dispatch never runs.
    const seen: string[] = [];
    const soon = busFor({ offsetMs: 1_000 });
    soon.subscribe(thingChanged, ({ id: thing }) => void seen.push(`soon:${thing}`));
    expect(await soon.tick()).toBe(0);
    const later = busFor({ offsetMs: 60_000 });
    later.subscribe(thingChanged, ({ id: thing }, { eventId }) => {
      seen.push(`later:${thing}`);
      expect(eventId).toBe(id);
    });
    expect(await later.tick()).toBe(1);
    expect(seen).toEqual(['later:orphan']);
    expect((await rowOf(id)).dispatchedAt).not.toBeNull();
    expect(await later.tick()).toBe(0);
  });

  it('retries an event whose subscriber failed, every subscriber again, with the same event id', async () => {
    let offsetMs = 0;
    const bus = new EventBus({
      db,
      logger: silentLogger,
      now: () => new Date(Date.now() + offsetMs),
    });
    buses.push(bus);
    const flaky: string[] = [];
    const steady: string[] = [];
    bus.subscribe(thingChanged, (_payload, { eventId }) => {
      flaky.push(eventId);
      if (flaky.length === 1) throw new Error('subscriber down');
    });
    bus.subscribe(thingChanged, (_payload, { eventId }) => void steady.push(eventId));
    bus.publish(thingChanged, { id: 'retried' });
    await bus.settled();
    const [eventId] = flaky;
    const failed = await rowOf(eventId!);
    expect(failed).toMatchObject({ attempts: 1, dispatchedAt: null, lastError: 'subscriber down' });
    expect(failed.nextAttemptAt!.getTime()).toBeGreaterThan(failed.createdAt.getTime());

    expect(await bus.tick()).toBe(0);
    offsetMs = 60 * 60_000;
    expect(await bus.tick()).toBe(1);
    expect(flaky).toEqual([eventId, eventId]);
    expect(steady).toEqual([eventId, eventId]);
    expect(await rowOf(eventId!)).toMatchObject({ attempts: 2, lastError: null });
  });

  it('gives an event up after its last attempt, keeps it with its error and logs it', async () => {
    const errors: unknown[] = [];
    const logger: Logger = { ...silentLogger, error: (entry) => void errors.push(entry) };
    const bus = busFor({ offsetMs: 24 * 60 * 60_000, logger, settings: { maxAttempts: 2 } });
    let calls = 0;
    bus.subscribe(thingChanged, () => {
      calls += 1;
      throw new Error(`failure ${calls}`);
    });
    const id = await enqueueEvent(db, thingChanged, { id: 'hopeless' });
    bus.dispatch([id]);
    await bus.settled();
    await db.update(eventOutbox).set({ nextAttemptAt: new Date() }).where(eq(eventOutbox.id, id));
    expect(await bus.tick()).toBe(1);
    expect(await bus.tick()).toBe(0);
    expect(calls).toBe(2);
    expect(await rowOf(id)).toMatchObject({
      attempts: 2,
      nextAttemptAt: null,
      dispatchedAt: null,
      lastError: 'failure 2',
    });
    expect(errors).toHaveLength(1);
    expect(await bus.purge()).toBe(0);
  });

  it('takes over an event whose dispatcher’s lease lapsed; the lost claim cannot mark it done', async () => {
    const id = await enqueueEvent(db, thingChanged, { id: 'slow' });
    let release: () => void = () => {};
    const stuck = busFor({ settings: { leaseMs: 1 } });
    stuck.subscribe(thingChanged, () => new Promise<void>((resolve) => (release = resolve)));
    stuck.dispatch([id]);
    const deadline = Date.now() + 5_000;
    while ((await rowOf(id)).attempts === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const taker = busFor({ offsetMs: 60_000 });
    const seen: string[] = [];
    taker.subscribe(thingChanged, (_payload, { eventId }) => void seen.push(eventId));
    expect(await taker.tick()).toBe(1);
    release();
    await stuck.settled();
    expect(seen).toEqual([id]);
    expect(await rowOf(id)).toMatchObject({ attempts: 2 });
  });

  it('waits in settled() for the events that subscribers themselves publish', async () => {
    const bus = busFor();
    const seen: string[] = [];
    bus.subscribe(thingChanged, ({ id }) => bus.publish(otherThing, { id: `${id}+` }));
    bus.subscribe(otherThing, async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen.push(id);
    });
    bus.publish(thingChanged, { id: 'first' });
    await bus.settled();
    expect(seen).toEqual(['first+']);
  });

  it.each([
    ['dispatched', 'dispatch'],
    ['published', 'publish'],
  ] as const)(
    'runs the events a subscriber %s after every subscriber of the event that caused them',
    async (_how, how) => {
      const bus = busFor();
      const seen: string[] = [];
      bus.subscribe(thingChanged, async ({ id }, { db: root, events }) => {
        if (how === 'publish') events.publish(otherThing, { id: `${id}+` });
        else events.dispatch([await enqueueEvent(root, otherThing, { id: `${id}+` })]);
        seen.push(`cause written by the fast subscriber`);
      });
      bus.subscribe(thingChanged, async () => {
        // The slow subscriber of the cause (the notification plugin writing its message).
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen.push('cause written by the slow subscriber');
      });
      bus.subscribe(otherThing, ({ id }) => void seen.push(`consequence ${id}`));
      bus.publish(thingChanged, { id: 'first' });
      await bus.settled();
      expect(seen).toEqual([
        'cause written by the fast subscriber',
        'cause written by the slow subscriber',
        'consequence first+',
      ]);
    },
  );

  it.each([
    ['dispatched after their commits', 'dispatch'],
    ['published', 'publish'],
  ] as const)(
    'handles events %s one after another, in that order, however slow the first',
    async (_how, how) => {
      const bus = busFor();
      const seen: string[] = [];
      bus.subscribe(thingChanged, async ({ id }) => {
        seen.push(`${id} started`);
        // The first event's subscriber is slow (the notification plugin writing its message).
        if (id === 'first') await new Promise((resolve) => setTimeout(resolve, 50));
        seen.push(`${id} done`);
      });
      if (how === 'publish') {
        bus.publish(thingChanged, { id: 'first' });
        bus.publish(thingChanged, { id: 'second' });
      } else {
        // Two requests committing one after the other, each dispatching its own event.
        bus.dispatch([await enqueueEvent(db, thingChanged, { id: 'first' })]);
        bus.dispatch([await enqueueEvent(db, thingChanged, { id: 'second' })]);
      }
      await bus.settled();
      expect(seen).toEqual(['first started', 'first done', 'second started', 'second done']);
    },
  );

  it('dispatches at once what a subscriber dispatches after its event has finished', async () => {
    const bus = busFor();
    const seen: string[] = [];
    let later: Promise<void> | undefined;
    bus.subscribe(thingChanged, ({ id }, { db: root, events }) => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(async () => {
        events.dispatch([await enqueueEvent(root, otherThing, { id: `${id}+` })]);
      });
    });
    bus.subscribe(otherThing, ({ id }) => void seen.push(id));
    bus.publish(thingChanged, { id: 'first' });
    await bus.settled();
    await later;
    await bus.settled();
    expect(seen).toEqual(['first+']);
  });

  it('stops delivering after unsubscribe', async () => {
    const bus = busFor();
    let count = 0;
    const unsubscribe = bus.subscribe(thingChanged, () => void (count += 1));
    bus.publish(thingChanged, { id: '1' });
    await bus.settled();
    unsubscribe();
    bus.publish(thingChanged, { id: '2' });
    await bus.settled();
    expect(count).toBe(1);
  });

  it('purges dispatched events past retention and nothing else', async () => {
    const bus = busFor();
    bus.publish(thingChanged, { id: 'old' });
    await bus.settled();
    const waiting = await enqueueEvent(db, thingChanged, { id: 'waiting' });
    expect(await bus.purge()).toBe(0);
    const later = busFor({ offsetMs: 8 * 24 * 60 * 60_000 });
    expect(await later.purge()).toBe(1);
    expect((await db.select().from(eventOutbox)).map((row) => row.id)).toEqual([waiting]);
  });

  it('backs off exponentially with jitter, up to the cap', () => {
    const settings = { retryBaseMs: 1_000, retryMaxMs: 10_000 };
    expect(retryDelayMs(1, settings, () => 0)).toBe(500);
    expect(retryDelayMs(1, settings, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, settings, () => 1)).toBe(4_000);
    expect(retryDelayMs(30, settings, () => 1)).toBe(10_000);
  });
});

describe('two dispatchers on one database', () => {
  let second: DatabaseHandle | undefined;
  afterAll(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.stop()));
    await second?.close();
  });

  it('dispatch each event once per claim', async () => {
    const url = testDatabaseUrl(database);
    second = url ? connectPostgres(url, { poolSize: 3 }) : undefined;
    const ids = await db.transaction(async (tx) => {
      const written: string[] = [];
      for (let n = 0; n < 40; n += 1)
        written.push(await enqueueEvent(tx, thingChanged, { id: `${n}` }));
      return written;
    });
    const deliveries: string[] = [];
    const settings = { batchSize: 7 };
    const one = busFor({ offsetMs: 60_000, settings });
    const two = busFor({ on: second?.db ?? db, offsetMs: 60_000, settings });
    const byDispatcher = { one: 0, two: 0 };
    for (const [name, bus] of [
      ['one', one],
      ['two', two],
    ] as const) {
      bus.subscribe(thingChanged, async (_payload, { eventId }) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        deliveries.push(eventId);
        byDispatcher[name] += 1;
      });
    }
    const drain = async (bus: EventBus) => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (await bus.tick()) > 0);
    };
    await Promise.all([drain(one), drain(two)]);
    expect(deliveries.sort()).toEqual([...ids].sort());
    expect(byDispatcher.one + byDispatcher.two).toBe(40);
    const rows = await db.select().from(eventOutbox).where(inArray(eventOutbox.id, ids));
    expect(rows.every((row) => row.attempts === 1 && row.dispatchedAt !== null)).toBe(true);
  });
});

describe('EventBus rejects bad input', () => {
  it('refuses event names outside {pluginId}.{event_name}', () => {
    expect(() => defineEvent('changed')).toThrow();
    expect(() => defineEvent('Demo.Changed')).toThrow();
  });
});
