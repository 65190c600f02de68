import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database.ts';
import type { KeysetOrder } from './keyset.ts';
import { keysetOrder, selectKeysetRows } from './keyset.ts';
import { queryRows } from './rows.ts';
import { createTestDatabase } from './testing.ts';

const events = pgTable('keyset_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
});

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table keyset_events (
    id uuid primary key default gen_random_uuid(), name text not null, at timestamptz not null)`);
  // Instants a microsecond apart (finer than a JavaScript Date), and ties the id must break.
  await database.db.execute(sql`insert into keyset_events (name, at)
    select 'event-' || n, timestamptz '2030-01-01 00:00:00' + (n / 3) * interval '1 microsecond'
    from generate_series(1, 11) as n`);
});
afterAll(async () => {
  await database.close();
});

/** Every id, page by page, `limit` at a time. */
async function walk(order: KeysetOrder, limit: number) {
  const ids: string[] = [];
  let key: string[] | undefined;
  for (let page = 0; page < 20; page += 1) {
    const rows = await selectKeysetRows(database.db, events, order, {
      after: order.after(key),
      limit,
    });
    const { rows: taken, lastKey } = order.split(rows, limit);
    expect(taken.length).toBeLessThanOrEqual(limit);
    ids.push(...taken.map((row) => row.id));
    if (lastKey === null) return ids;
    key = lastKey;
  }
  throw new Error('did not end within 20 pages');
}

describe('keyset order', () => {
  it.each([
    ['asc', sql`at, id`],
    ['desc', sql`at desc, id desc`],
  ] as const)(
    'pages %s over microsecond instants and ties without duplicates or gaps',
    async (direction, orderBy) => {
      const order = keysetOrder([events.at, events.id], direction);
      const expected = await queryRows<{ id: string }>(
        database.db,
        sql`select id from keyset_events order by ${orderBy}`,
      );
      const everyId = expected.map((row) => row.id);
      for (const limit of [1, 2, 4, 11, 12]) {
        expect(await walk(order, limit)).toEqual(everyId);
      }
    },
  );

  it('keeps the full precision of a timestamp in the key', async () => {
    const order = keysetOrder([events.at, events.id]);
    const [first] = await selectKeysetRows(database.db, events, order, { limit: 1 });
    const [at, id] = JSON.parse(first!.pageKey) as string[];
    expect([at, id]).toEqual([expect.stringMatching(/:00:00(\.0+)?[+-]\d\d(:\d\d)?$/), first!.id]);
    // Rows 3 to 5 lie one microsecond later; a Date would have lost it.
    const [, , third] = await selectKeysetRows(database.db, events, order, { limit: 3 });
    expect(JSON.parse(third!.pageKey)[0]).toMatch(/:00:00\.000001[+-]\d\d(:\d\d)?$/);
  });

  it('refuses a column it cannot key on', () => {
    const odd = pgTable('odd', {
      times: timestamp('times', { withTimezone: true }).array(),
      local: timestamp('local'),
    });
    for (const column of [odd.times, odd.local]) {
      expect(() => keysetOrder([column])).toThrow(/cannot be a page key/);
    }
  });
});
