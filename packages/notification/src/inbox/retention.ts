import type { Logger } from '@checkline/core';
import { createPeriodicTask } from '@checkline/core';
import type { Database } from '@checkline/db';
import { purgeNotificationsBefore } from './service.ts';

export interface InboxRetention {
  db: Database;
  logger: Logger;
  retentionDays: number;
  intervalMs: number;
  chunkSize: number;
}

const DAY_MS = 86_400_000;

/** Purges the inbox once now and then every `intervalMs`; the returned function stops it. */
export function startInboxPurge(retention: InboxRetention): () => Promise<void> {
  const { db, logger, retentionDays, intervalMs, chunkSize } = retention;
  const purge = createPeriodicTask({
    name: 'inbox retention',
    intervalMs,
    runAtStart: true,
    logger,
    async run() {
      const cutoff = new Date(Date.now() - retentionDays * DAY_MS);
      const purged = await purgeNotificationsBefore(db, cutoff, chunkSize);
      if (purged > 0) logger.info({ purged, retentionDays }, 'inbox: purged old notifications');
    },
  });
  purge.start();
  return () => purge.stop();
}
