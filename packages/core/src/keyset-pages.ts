import type { Database, KeyKind, KeysetOrder, KeysetRow } from '@checkline/db';
import { selectKeysetRows } from '@checkline/db';
import { z } from 'zod';
import type { CursorSeal } from './cursor-seal.ts';
import { foreignCursor } from './cursor-seal.ts';
import type { Principal } from './principal.ts';

const keyValue: Record<KeyKind, z.ZodType<string>> = {
  uuid: z.uuid(),
  timestamp: z.iso.datetime({ offset: true }),
  // A text key came from a stored row: it never holds NUL or a lone surrogate.
  text: z
    .string()
    .max(1_000)
    .refine((value) => !value.includes('\0') && !/\p{Cs}/u.test(value)),
};

/**
 * Which items of a page the caller may see, one answer per item in order (team access): the
 * access middleware makes one for each list procedure from its contract metadata.
 */
export type ItemFilter = (items: readonly Record<string, unknown>[]) => Promise<readonly boolean[]>;

/** Whose page is read: the seal of its cursors, the caller they are bound to, what it may see. */
export interface PageScope {
  readonly cursors: CursorSeal;
  /** Names the caller in its cursors: see {@link callerOfPrincipal}. */
  readonly caller: string;
  /** Absent: the caller sees every row the list's own conditions select. */
  readonly keep?: ItemFilter | undefined;
}

/** A caller as its cursors are bound to it: kind and id, so a user and an application never share. */
export const callerOfPrincipal = (principal: Principal) =>
  `${principal.kind}:${principal.id ?? ''}`;

/** What a list procedure asks for: rows per page, the previous page's cursor, and rows to skip. */
export interface PageRequest {
  limit: number;
  /** Null or absent: the first page (a previous page's `nextCursor` is null at the end). */
  cursor?: string | null | undefined;
  offset?: number | undefined;
}

type Where = ReturnType<KeysetOrder['after']>;

/** Reads up to `count` rows in the list's order, strictly after `after`, skipping `offset`. */
export type FetchRows<R> = (after: Where, count: number, offset: number) => Promise<readonly R[]>;

/** One list's keyset pages. */
export interface KeysetPages {
  readonly key: KeysetOrder['key'];
  readonly orderBy: KeysetOrder['orderBy'];
  /**
   * One page of `limit` items the caller may see, and the cursor after the last of them (null
   * when no visible item follows). Rows the caller may not see are passed over and reading goes
   * on, so a page is short only at the end, and a cursor is only ever made from a row the caller
   * sees: nothing of a hidden row reaches the caller, not even its position.
   */
  collect<R extends { pageKey: string }, T extends object>(
    scope: PageScope,
    request: PageRequest,
    fetch: FetchRows<R>,
    toItems: (rows: R[]) => T[] | Promise<T[]>,
  ): Promise<{ items: T[]; nextCursor: string | null }>;
  /** `collect` over a table's rows matching `where`. */
  read<Table extends Parameters<typeof selectKeysetRows>[1], T extends object>(
    db: Database,
    table: Table,
    request: PageRequest & { where?: Where },
    scope: PageScope,
    toItems: (rows: KeysetRow<Table>[]) => T[] | Promise<T[]>,
  ): Promise<{ items: T[]; nextCursor: string | null }>;
}

/** Rows read per round while hidden rows keep a page from filling: grows up to this. */
const MAX_SCAN_BATCH = 1_001;

const keyOfRow = (row: { pageKey: string }) => (JSON.parse(row.pageKey) as unknown[]).map(String);

/**
 * Keyset paging for the list named `list` (e.g. `catalog.systems`). Cursors are sealed for the
 * caller and the list (see CursorSeal); a cursor's key is checked against its columns' kinds
 * before it reaches the database.
 */
export function keysetPages(list: string, order: KeysetOrder): KeysetPages {
  const keyShape = z.tuple(order.kinds.map((kind) => keyValue[kind]) as [z.ZodType<string>]);
  const openKey = (scope: PageScope, cursor: string): string[] => {
    const parsed = keyShape.safeParse(scope.cursors.open({ list, caller: scope.caller }, cursor));
    if (!parsed.success) throw foreignCursor();
    return parsed.data;
  };

  async function collect<R extends { pageKey: string }, T extends object>(
    scope: PageScope,
    request: PageRequest,
    fetch: FetchRows<R>,
    toItems: (rows: R[]) => T[] | Promise<T[]>,
  ): Promise<{ items: T[]; nextCursor: string | null }> {
    const { limit } = request;
    const binding = { list, caller: scope.caller };
    let after = request.cursor == null ? undefined : order.after(openKey(scope, request.cursor));
    let offset = request.offset ?? 0;
    let count = limit + 1;
    const kept: { row: R; item: T }[] = [];
    for (;;) {
      const rows = [...(await fetch(after, count, offset))];
      const items = await toItems(rows);
      const visible = scope.keep
        ? await scope.keep(items as unknown as Record<string, unknown>[])
        : items.map(() => true);
      rows.forEach((row, i) => {
        if (visible[i]) kept.push({ row, item: items[i]! });
      });
      if (kept.length > limit || rows.length < count) break;
      after = order.after(keyOfRow(rows.at(-1)!));
      offset = 0;
      count = Math.min(count * 2, MAX_SCAN_BATCH);
    }
    const taken = kept.slice(0, limit);
    const last = taken.at(-1);
    const nextCursor =
      kept.length > limit && last ? scope.cursors.seal(binding, keyOfRow(last.row)) : null;
    return { items: taken.map(({ item }) => item), nextCursor };
  }

  return {
    key: order.key,
    orderBy: order.orderBy,
    collect,
    read: (db, table, { where, ...request }, scope, toItems) =>
      collect(
        scope,
        request,
        (after, count, offset) =>
          selectKeysetRows(db, table, order, { where, after, limit: count - 1, offset }),
        toItems,
      ),
  };
}
