import type { Database, KeyKind, KeysetOrder, KeysetRow } from '@checkline/db';
import { selectKeysetRows } from '@checkline/db';
import { z } from 'zod';
import { badRequest } from './errors.ts';

const keyValue: Record<KeyKind, z.ZodType<string>> = {
  uuid: z.uuid(),
  timestamp: z.iso.datetime({ offset: true }),
  // A text key came from a stored row: it never holds NUL or a lone surrogate.
  text: z
    .string()
    .max(1_000)
    .refine((value) => !value.includes('\0') && !/\p{Cs}/u.test(value)),
};

const invalidCursor = (message: string) =>
  badRequest('Invalid cursor', [{ path: 'cursor', message }]);

/** `{list, key}` as base64url JSON: opaque to clients, and tied to the list that made it. */
export function encodeCursor(list: string, key: readonly string[]): string {
  return Buffer.from(JSON.stringify({ list, key })).toString('base64url');
}

/**
 * The key inside a cursor of `list`, each value checked against its column's kind, so a
 * malformed or altered cursor is BAD_REQUEST here and never reaches the database.
 */
export function decodeCursor(list: string, kinds: readonly KeyKind[], cursor: string): string[] {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor('Not a cursor this server gave out');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('Not a cursor this server gave out');
  }
  const shape = z.object({
    list: z.string(),
    key: z.tuple(kinds.map((kind) => keyValue[kind]) as [z.ZodType<string>]),
  });
  const parsed = shape.safeParse(decoded);
  if (!parsed.success) throw invalidCursor('Not a cursor this server gave out');
  if (parsed.data.list !== list) throw invalidCursor('This cursor belongs to another list');
  return parsed.data.key;
}

/** One list's keyset pages: the condition for a cursor, and the next cursor of a page. */
export interface KeysetPages {
  readonly key: KeysetOrder['key'];
  readonly orderBy: KeysetOrder['orderBy'];
  /** Rows after the position `cursor` stands for; BAD_REQUEST when it is not a cursor of this list. */
  after(cursor: string | undefined): ReturnType<KeysetOrder['after']>;
  /** Of `limit + 1` rows read in this order: the page, and the cursor of the next one or null. */
  page<T extends { pageKey: string }>(
    rows: readonly T[],
    limit: number,
  ): { rows: T[]; nextCursor: string | null };
  /** Reads one page of a table's rows matching `where`, after `cursor` and then `offset` rows. */
  read<T extends Parameters<typeof selectKeysetRows>[1]>(
    db: Database,
    table: T,
    page: { where?: Where; limit: number; cursor?: string | undefined; offset?: number },
  ): Promise<{ rows: KeysetRow<T>[]; nextCursor: string | null }>;
}

type Where = ReturnType<KeysetOrder['after']>;

/**
 * Keyset paging for the list named `list` (e.g. `catalog.systems`). A list filtered after the
 * page is read (team access) keeps `nextCursor` from the unfiltered page, so nothing is skipped.
 */
export function keysetPages(list: string, order: KeysetOrder): KeysetPages {
  const pages: KeysetPages = {
    key: order.key,
    orderBy: order.orderBy,
    after: (cursor) =>
      cursor === undefined ? undefined : order.after(decodeCursor(list, order.kinds, cursor)),
    page(rows, limit) {
      const { rows: taken, lastKey } = order.split(rows, limit);
      return { rows: taken, nextCursor: lastKey && encodeCursor(list, lastKey) };
    },
    async read(db, table, { cursor, ...page }) {
      const rows = await selectKeysetRows(db, table, order, {
        ...page,
        after: pages.after(cursor),
      });
      return pages.page(rows, page.limit);
    },
  };
  return pages;
}
