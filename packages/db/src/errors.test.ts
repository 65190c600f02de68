import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database.ts';
import { isDatabaseUnavailable, redactDatabaseError, uniqueOr } from './errors.ts';
import { createTestDatabase } from './testing.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function failure(statement: ReturnType<typeof sql>): Promise<Error> {
  try {
    await database.db.execute(statement);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the statement did not fail');
}

/** Every string anywhere in the value, own properties and causes alike. */
function everyText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object' || seen.has(value)) return '';
  seen.add(value);
  const keys = [...Object.getOwnPropertyNames(value), 'cause', 'message', 'stack'];
  return keys.map((key) => everyText((value as Record<string, unknown>)[key], seen)).join('\n');
}

describe('redactDatabaseError', () => {
  it.each([
    ['a rejected value in the message', (secret: string) => sql`select ${secret}::integer`],
    ['a rejected value in the detail', (secret: string) => sql`select ${secret}::jsonb`],
  ])('keeps the SQL and drops %s and the bound parameters', async (_, statement) => {
    const secret = 'hunter2-secret-value';
    const error = await failure(statement(secret));
    expect(everyText(error)).toContain(secret);
    const redacted = redactDatabaseError(error) as Error;
    expect(everyText(redacted)).not.toContain(secret);
    expect(redacted.message).toContain('select $1::');
    expect(redacted.stack).toContain('select $1::');
  });

  it('passes anything that is not an Error through', () => {
    expect(redactDatabaseError('text')).toBe('text');
  });
});

describe('isDatabaseUnavailable', () => {
  it('knows connection failures anywhere in the cause chain, and nothing else', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable({ code: '57P01' })).toBe(true);
    expect(isDatabaseUnavailable({ code: '08006' })).toBe(true);
    expect(isDatabaseUnavailable({ code: 'CONNECTION_CLOSED' })).toBe(true);
    expect(isDatabaseUnavailable(await failure(sql`select 'x'::integer`))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});

describe('uniqueOr', () => {
  it('turns a unique violation into the given error, and passes the rest through', async () => {
    const taken = new Error('taken');
    expect(
      await uniqueOr(
        () => Promise.resolve(7),
        () => taken,
      ),
    ).toBe(7);
    await database.db.execute(sql`create table unique_or_names (name text unique)`);
    const insert = () => database.db.execute(sql`insert into unique_or_names values ('a')`);
    await uniqueOr(insert, () => taken);
    await expect(uniqueOr(insert, () => taken)).rejects.toBe(taken);
    const other = await failure(sql`select 'x'::integer`);
    await expect(
      uniqueOr(
        () => Promise.reject(other),
        () => taken,
      ),
    ).rejects.toBe(other);
  });
});
