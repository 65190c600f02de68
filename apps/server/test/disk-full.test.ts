import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DISK_FULL_MESSAGE, openPglite } from '@checkline/db';
import type { SmallDisk } from '@checkline/db/testing';
import { mountSmallDisk } from '@checkline/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/server-process.ts';
import type { TestServer } from './support/test-server.ts';
import { createTestServer } from './support/test-server.ts';

/*
 * Issue 19 item 13: the embedded database's disk fills up. The disk is a small tmpfs of this
 * test's own, so the machine's disk is never touched.
 */
let disk: SmallDisk;
let server: TestServer;
let serverClosed = false;

beforeAll(async () => {
  disk = await mountSmallDisk(64);
  server = await createTestServer({ database: await openPglite(join(disk.folder, 'data')) });
});
afterAll(async () => {
  if (!serverClosed) await server?.close();
  await disk?.destroy();
});

async function createSystem(session: { cookie: string; origin: string }, name: string) {
  const response = await server.request('/api/catalog/', {
    method: 'POST',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ createSystem: { name } }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Writes rows into the systems table until its file cannot grow; bounded by the disk's size. */
async function fillSystemsTable() {
  for (let round = 0; round < 200; round++) {
    try {
      await server.database.db.execute(
        sql`insert into catalog.systems (name, description)
            select 'filler-' || gen_random_uuid(), repeat(md5(random()::text), 100)
            from generate_series(1, 500)`,
      );
    } catch {
      return;
    }
  }
  throw new Error('the disk did not fill up');
}

describe('a full disk under the embedded database', () => {
  it(
    'answers 503 naming the disk, /readyz says so, and the log names the cause without values',
    { timeout: 120_000 },
    async () => {
      const session = await server.adminSession();
      expect((await createSystem(session, 'before-the-disk-filled')).status).toBe(200);
      expect((await server.request('/readyz')).status).toBe(200);

      await fillSystemsTable();
      await disk.fill();
      // A write may still fit in room the engine set aside; the next ones cannot. Bounded.
      const secretName = `system-${randomBytes(8).toString('hex')}`;
      const answers: { status: number; body: Record<string, unknown> }[] = [];
      for (let attempt = 0; attempt < 100 && answers.at(-1)?.status !== 503; attempt++) {
        answers.push(await createSystem(session, `${secretName}-${attempt}`));
      }
      expect(
        answers.filter((answer) => answer.status !== 200).map((answer) => answer.status),
      ).toEqual([503]);
      expect(answers.at(-1)!.body).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: DISK_FULL_MESSAGE,
      });

      const ready = await server.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining(DISK_FULL_MESSAGE),
      });

      const logged = server.logLines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.sqlState === '53100');
      expect(logged).toMatchObject({
        level: 50,
        cause: expect.stringMatching(/No space left on device/),
      });
      expect(server.logLines.join('\n')).not.toContain(secretName);
    },
  );

  it(
    'makes a restart on the still full disk say so in one fatal line and exit 1',
    { timeout: 90_000 },
    async () => {
      await server.close();
      serverClosed = true;
      const process = startServerProcess({
        PORT: '0',
        DATA_DIR: join(disk.folder, 'data'),
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      });
      const exit = await process.exitWithin(60_000);
      await process.dispose();
      expect(exit).toEqual({ code: 1, signal: null });
      expect(process.lines).toHaveLength(1);
      expect(process.lines[0]).toMatchObject({
        level: 60,
        msg: expect.stringContaining(`cannot start: ${DISK_FULL_MESSAGE}`),
      });
      expect(process.stderr()).toBe('');
    },
  );
});
