import type { Database } from '@checkline/db';
import { eq } from 'drizzle-orm';
import { healthChecks, heartbeats } from '../db/schema.ts';
import {
  generateHeartbeatToken,
  hashHeartbeatToken,
  heartbeatCheckIdOf,
  tokenMatches,
} from './token.ts';

/**
 * Issues a new token for a heartbeat check, replacing any earlier one (which stops working);
 * answers the token, the only time it is seen. The check is late from `now` plus its period.
 */
export async function issueHeartbeatToken(
  db: Database,
  healthCheckId: string,
  now: Date,
): Promise<string> {
  const token = generateHeartbeatToken(healthCheckId);
  const row = { tokenHash: hashHeartbeatToken(token), issuedAt: now, lastBeatAt: null };
  await db
    .insert(heartbeats)
    .values({ healthCheckId, ...row })
    .onConflictDoUpdate({ target: heartbeats.healthCheckId, set: row });
  return token;
}

/** Forgets a check's token (its type is no longer heartbeat). */
export async function forgetHeartbeatToken(db: Database, healthCheckId: string) {
  await db.delete(heartbeats).where(eq(heartbeats.healthCheckId, healthCheckId));
}

/**
 * Records a beat for the token's check; false when the token is unknown or wrong. `admit` runs
 * once the token is verified, before the beat is written (the check's beat budget throws there).
 */
export async function recordBeat(
  db: Database,
  token: string,
  now: Date,
  admit: (healthCheckId: string) => Promise<void> = async () => {},
): Promise<boolean> {
  const healthCheckId = heartbeatCheckIdOf(token);
  if (!healthCheckId) return false;
  const [stored] = await db
    .select({ tokenHash: heartbeats.tokenHash })
    .from(heartbeats)
    .where(eq(heartbeats.healthCheckId, healthCheckId));
  if (!stored || !tokenMatches(token, stored.tokenHash)) return false;
  await admit(healthCheckId);
  await db
    .update(heartbeats)
    .set({ lastBeatAt: now })
    .where(eq(heartbeats.healthCheckId, healthCheckId));
  return true;
}

/** What a heartbeat run judges: the last beat (or the token's issue), and the check's period. */
export interface BeatState {
  lastBeatAt: Date | null;
  issuedAt: Date;
  intervalSeconds: number;
}

export async function readBeatState(
  db: Database,
  healthCheckId: string,
): Promise<BeatState | undefined> {
  const [row] = await db
    .select({
      lastBeatAt: heartbeats.lastBeatAt,
      issuedAt: heartbeats.issuedAt,
      intervalSeconds: healthChecks.intervalSeconds,
    })
    .from(heartbeats)
    .innerJoin(healthChecks, eq(healthChecks.id, heartbeats.healthCheckId))
    .where(eq(heartbeats.healthCheckId, healthCheckId));
  return row;
}
