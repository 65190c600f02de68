import { describe, expect, it } from 'vitest';
import { connectPostgres } from './create-database.ts';
import { freeLoopbackPort } from './throwaway-postgres.ts';
import { waitForDatabase } from './wait-for-database.ts';

describe('waitForDatabase', () => {
  it('retries an unreachable server with growing pauses, saying why, until stopped', async () => {
    const port = await freeLoopbackPort();
    const database = connectPostgres(`postgres://postgres@127.0.0.1:${port}/postgres`);
    const logged: { attempt: number; retryInMs: number; reason: string }[] = [];
    const stop = new AbortController();
    const waiting = waitForDatabase(() => database.ping(), {
      initialDelayMs: 10,
      signal: stop.signal,
      log: (entry) => {
        logged.push(entry);
        if (entry.attempt === 3) stop.abort(new Error('stopped'));
      },
    });
    await expect(waiting).rejects.toThrow('stopped');
    await database.close();
    expect(logged.map((entry) => [entry.attempt, entry.retryInMs])).toEqual([
      [1, 10],
      [2, 20],
      [3, 40],
    ]);
    expect(logged[0]!.reason).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('resolves once the ping answers', async () => {
    let pings = 0;
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    await waitForDatabase(
      async () => {
        if (++pings < 3) throw refused;
      },
      { initialDelayMs: 1, log: () => {} },
    );
    expect(pings).toBe(3);
  });

  it('throws at once what waiting cannot mend', async () => {
    const wrongPassword = Object.assign(new Error('password authentication failed'), {
      code: '28P01',
    });
    const logged: unknown[] = [];
    await expect(
      waitForDatabase(() => Promise.reject(wrongPassword), { log: (entry) => logged.push(entry) }),
    ).rejects.toBe(wrongPassword);
    expect(logged).toEqual([]);
  });
});
