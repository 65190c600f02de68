import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database.ts';
import { createTestDatabase } from './testing.ts';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Resolves with the payloads heard once `count` arrived, or rejects after five seconds. */
function hear(heard: string[], count: number) {
  const deadline = Date.now() + 5_000;
  return new Promise<string[]>((resolve, reject) => {
    const check = () => {
      if (heard.length >= count) return resolve([...heard]);
      if (Date.now() > deadline) return reject(new Error(`heard only ${JSON.stringify(heard)}`));
      setTimeout(check, 10);
    };
    check();
  });
}

const notify = (payload: string) => sql`select pg_notify('listen_test', ${payload})`;

describe('listen', () => {
  it('hears a notify at commit, never one rolled back, and nothing once unlistened', async () => {
    const heard: string[] = [];
    const unlisten = await database.listen('listen_test', (payload) => void heard.push(payload));
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(notify('rolled back'));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await database.db.transaction(async (tx) => {
      await tx.execute(notify('committed'));
    });
    await database.db.execute(notify('on its own'));
    expect(await hear(heard, 2)).toEqual(['committed', 'on its own']);

    await unlisten();
    await database.db.execute(notify('after'));
    // A marker on a second listener proves the notify was sent and delivered meanwhile.
    const marker: string[] = [];
    const stop = await database.listen('listen_test', (payload) => void marker.push(payload));
    await database.db.execute(notify('marker'));
    await hear(marker, 1);
    await stop();
    expect(heard).toEqual(['committed', 'on its own']);
  });
});
