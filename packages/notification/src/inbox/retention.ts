import type { Logger } from '@checkline/core';
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
  let running: Promise<void> | undefined;
  let stopped = false;

  async function purgeOnce() {
    try {
      const cutoff = new Date(Date.now() - retentionDays * DAY_MS);
      const purged = await purgeNotificationsBefore(db, cutoff, chunkSize);
      if (purged > 0) logger.info({ purged, retentionDays }, 'inbox: purged old notifications');
    } catch (error) {
      logger.warn({ err: error }, 'inbox: purge failed; it runs again at the next interval');
    }
  }

  const tick = () => {
    if (stopped || running) return;
    running = purgeOnce().finally(() => (running = undefined));
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
