import { randomUUID } from 'node:crypto';
import type { Logger } from '@checkline/core';
import { silentLogger } from '@checkline/core';
import { startPluginHarness } from '@checkline/core/testing';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inbox } from '../db/schema.ts';
import { createNotificationPlugin } from '../plugin.ts';
import { inboxDatabaseForTests } from '../testing/fixture.ts';
import { startInboxPurge } from './retention.ts';
import { insertNotifications } from './service.ts';

const database = inboxDatabaseForTests();

/** Notifications to fresh users, written `daysAgo` days ago. */
async function notificationsAged(daysAgo: number, users: number, title: string) {
  const ids = Array.from({ length: users }, () => randomUUID());
  await insertNotifications(database.db, ids, { title, type: 'test.age', importance: 'info' });
  await database.db
    .update(inbox)
    .set({ createdAt: sql`now() - make_interval(days => ${daysAgo})` })
    .where(eq(inbox.title, title));
}

const titles = async () =>
  (await database.db.select({ title: inbox.title }).from(inbox)).map((row) => row.title).sort();

/** Polls `done` every 20 ms for at most five seconds. */
async function eventually(done: () => Promise<boolean>) {
  const deadline = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('not done in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function recordingLogger() {
  const infos: unknown[] = [];
  const logger: Logger = { ...silentLogger, info: (entry) => void infos.push(entry) };
  return { logger, infos };
}

describe('works', () => {
  it('purges notifications past the retention period in chunks, logs the count, keeps the rest', async () => {
    await notificationsAged(31, 5, 'expired');
    await notificationsAged(29, 2, 'kept');
    const { logger, infos } = recordingLogger();
    const stop = startInboxPurge({
      db: database.db,
      logger,
      retentionDays: 30,
      intervalMs: 60_000,
      chunkSize: 2,
    });
    try {
      await eventually(async () => !(await titles()).includes('expired'));
      expect(await titles()).toEqual(['kept', 'kept']);
      await eventually(async () => infos.length > 0);
      expect(infos).toEqual([{ purged: 5, retentionDays: 30 }]);
    } finally {
      await stop();
    }
  });

  it('the plugin purges with its default of 90 days once ready, and stops with it', async () => {
    await notificationsAged(91, 1, 'expired');
    await notificationsAged(89, 1, 'kept');
    const booted = await startPluginHarness([createNotificationPlugin()], database.db, {
      absentDependencies: ['auth'],
    });
    try {
      await eventually(async () => !(await titles()).includes('expired'));
      expect(await titles()).toEqual(['kept']);
    } finally {
      await booted.stop();
    }
  });
});
