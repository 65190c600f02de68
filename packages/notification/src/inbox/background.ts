import type { DatabaseListen } from '@checkline/db';
import type { NotificationState } from '../state.ts';
import { InboxHub } from './hub.ts';
import { startInboxPurge } from './retention.ts';
import { resolveInboxStreamLimits } from './stream-limits.ts';

const HOUR_MS = 3_600_000;

/**
 * The inbox's background work of one plugin instance: the LISTEN feeding open streams (when the
 * host can listen) and the retention purge.
 */
export async function startInbox(
  state: NotificationState,
  listen: DatabaseListen | undefined,
): Promise<{ endStreams(): void; stop(): Promise<void> }> {
  const hub = new InboxHub(
    state.db,
    state.logger,
    resolveInboxStreamLimits(state.options.inboxStreams),
  );
  if (listen) await hub.start(listen);
  state.inboxHub = hub;
  const stopPurge = startInboxPurge({
    db: state.db,
    logger: state.logger,
    retentionDays: state.options.inboxRetentionDays ?? 90,
    intervalMs: state.options.inboxPurgeIntervalMs ?? HOUR_MS,
    chunkSize: state.options.inboxPurgeChunkSize ?? 5_000,
  });
  return {
    endStreams: () => hub.endStreams(),
    async stop() {
      await stopPurge();
      await hub.stop();
    },
  };
}
