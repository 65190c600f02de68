import type { Database } from '@checkline/db';
import type { HealthCheck, SavedHealthCheck } from '../schemas.ts';
import { forgetHeartbeatToken, issueHeartbeatToken } from './store.ts';
import { HEARTBEAT_TYPE } from './token.ts';

/**
 * A check just saved, with a token issued when it became a heartbeat check (answered this once)
 * and its token forgotten when it stopped being one. `previousType` is undefined on creation.
 */
export async function withHeartbeatToken(
  db: Database,
  check: HealthCheck,
  previousType: string | undefined,
  now: Date,
): Promise<SavedHealthCheck> {
  const isHeartbeat = check.type === HEARTBEAT_TYPE;
  const wasHeartbeat = previousType === HEARTBEAT_TYPE;
  if (isHeartbeat && !wasHeartbeat) {
    return { ...check, heartbeatToken: await issueHeartbeatToken(db, check.id, now) };
  }
  if (wasHeartbeat && !isHeartbeat) await forgetHeartbeatToken(db, check.id);
  return check;
}
