import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** A `timestamptz` column, read and written as a `Date`. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * When a row was written: not null, `clock_timestamp()` by default rather than `now()`, so rows
 * written in one transaction (a keyed batch) still get distinct, ordered times.
 */
export const writtenAt = (name: string) =>
  instant(name)
    .notNull()
    .default(sql`clock_timestamp()`);
