import { randomBytes } from 'node:crypto';
import type { DatabaseHandle } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorSeal } from './cursor-seal.ts';
import type { PageScope } from './keyset-pages.ts';
import { keysetPages } from './keyset-pages.ts';

const rows = pgTable('paged_rows', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  hidden: text('hidden').notNull(),
});

let database: DatabaseHandle;
const seal = CursorSeal.ephemeral();
const pages = keysetPages('test.rows', keysetOrder([rows.name]));
const scope = (caller: string, keep?: PageScope['keep']): PageScope => ({
  cursors: seal,
  caller,
  keep,
});
const hiddenOnes: PageScope['keep'] = async (items) => items.map((item) => item.hidden !== 'yes');
const allNames = Array.from({ length: 12 }, (_, i) => `row-${String(i).padStart(2, '0')}`);
// A stretch of hidden rows longer than any page, and single hidden rows at page edges.
const hiddenNames = new Set(['row-01', 'row-03', 'row-04', 'row-05', 'row-06', 'row-07', 'row-11']);

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(
    sql`create table paged_rows (id uuid primary key default gen_random_uuid(), name text not null unique, hidden text not null)`,
  );
  await database.db
    .insert(rows)
    .values(allNames.map((name) => ({ name, hidden: hiddenNames.has(name) ? 'yes' : 'no' })));
});
afterAll(async () => {
  await database.close();
});

const readPage = (pageScope: PageScope, limit: number, cursor?: string) =>
  pages.read(database.db, rows, { limit, cursor }, pageScope, (found) => found);

async function walk(pageScope: PageScope, limit: number) {
  const seen: { names: string[]; nextCursor: string | null }[] = [];
  let cursor: string | undefined;
  for (let round = 0; round < 20; round += 1) {
    const page = await readPage(pageScope, limit, cursor);
    seen.push({ names: page.items.map((item) => item.name), nextCursor: page.nextCursor });
    if (page.nextCursor === null) return seen;
    cursor = page.nextCursor;
  }
  throw new Error('did not end within 20 pages');
}

describe('sealed cursors', () => {
  it('show nothing of the row they stand after', async () => {
    const page = await readPage(scope('application:a'), 2);
    const bytes = Buffer.from(page.nextCursor!, 'base64url').toString('latin1');
    expect(bytes).not.toContain('row-01');
    expect(bytes).not.toContain('test.rows');
    expect(bytes).not.toContain('list');
  });

  it('open for the caller and the list they were given to, and no other', async () => {
    const { nextCursor } = await readPage(scope('application:a'), 2);
    const next = await readPage(scope('application:a'), 2, nextCursor!);
    expect(next.items.map((item) => item.name)).toEqual(['row-02', 'row-03']);
    await expect(readPage(scope('application:b'), 2, nextCursor!)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      data: { issues: [{ path: 'cursor', message: expect.stringMatching(/another caller/) }] },
    });
    const otherList = keysetPages('test.others', keysetOrder([rows.name]));
    await expect(
      otherList.read(
        database.db,
        rows,
        { limit: 2, cursor: nextCursor! },
        scope('application:a'),
        (r) => r,
      ),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      data: { issues: [{ path: 'cursor', message: 'This cursor belongs to another list' }] },
    });
  });

  it('refuse any altered byte, a cursor made by hand, and one sealed under an unknown key', async () => {
    const { nextCursor } = await readPage(scope('application:a'), 2);
    const bytes = Buffer.from(nextCursor!, 'base64url');
    const altered = Array.from({ length: bytes.length }, (_, i) => {
      const copy = Buffer.from(bytes);
      copy[i] = copy[i]! ^ 0x01;
      return copy.toString('base64url');
    });
    const byHand = Buffer.from(JSON.stringify({ list: 'test.rows', key: ['row-05'] })).toString(
      'base64url',
    );
    const stranger = new CursorSeal([randomBytes(32)]).seal(
      { list: 'test.rows', caller: 'application:a' },
      ['row-05'],
    );
    for (const bad of [...altered, byHand, stranger, 'a+b/c=', 'e30', nextCursor!.slice(0, 20)]) {
      await expect(readPage(scope('application:a'), 2, bad), bad).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { issues: [expect.objectContaining({ path: 'cursor' })] },
      });
    }
  });

  it('still open after a key rotation, sealed anew under the new key', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = new CursorSeal([oldKey]).seal({ list: 'l', caller: 'c' }, ['k']);
    const rotated = new CursorSeal([newKey, oldKey]);
    expect(rotated.open({ list: 'l', caller: 'c' }, before)).toEqual(['k']);
    const after = rotated.seal({ list: 'l', caller: 'c' }, ['k']);
    expect(() => new CursorSeal([oldKey]).open({ list: 'l', caller: 'c' }, after)).toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
  });
});

describe('pages of a filtered list', () => {
  const visible = allNames.filter((name) => !hiddenNames.has(name));

  it.each([1, 2, 3, 5])(
    'fill with visible rows (limit %i), end at the last, and never stand after a hidden row',
    async (limit) => {
      const seen = await walk(scope('application:a', hiddenOnes), limit);
      expect(seen.flatMap((page) => page.names)).toEqual(visible);
      for (const page of seen.slice(0, -1)) expect(page.names).toHaveLength(limit);
      expect(seen.at(-1)!.names.length).toBeGreaterThan(0);
      expect(seen.at(-1)!.nextCursor).toBeNull();
    },
  );

  it('answer an empty last page without a cursor when only hidden rows follow', async () => {
    const onlyHidden = await walk(
      scope('application:a', async (items) => items.map(() => false)),
      2,
    );
    expect(onlyHidden).toEqual([{ names: [], nextCursor: null }]);
  });
});
