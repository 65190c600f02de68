import { randomBytes } from 'node:crypto';
import { sha256Hex } from './sha256.ts';
import type { Database } from '@checkline/db';
import { prepared } from '@checkline/db';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { sessions } from './db/schema.ts';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A used session's expiry moves forward at most this often, not on every request. */
const RENEW_EVERY_MS = 60_000;

export interface SessionLifetime {
  idleSeconds: number;
  maxAgeSeconds: number;
}

export function hashSessionToken(token: string): string {
  return sha256Hex(token);
}

export function isWellFormedSessionToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** Starts a session; answers the opaque token (256 random bits), which is stored only hashed. */
export async function createSession(
  db: Database,
  userId: string,
  lifetime: SessionLifetime,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.insert(sessions).values({
    tokenHash: hashSessionToken(token),
    userId,
    expiresAt: new Date(now + Math.min(lifetime.idleSeconds, lifetime.maxAgeSeconds) * 1000),
    renewedAt: new Date(now),
    createdAt: new Date(now),
  });
  // Sign-ins are rare enough to carry the clean-up of sessions that ended.
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date(now)));
  return token;
}

const selectSession = prepared((db) =>
  db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, sql.placeholder('hash')))
    .prepare('auth_session_by_hash'),
);

export interface ActiveSession {
  userId: string;
  expiresAt: Date;
}

/**
 * The live session with this token hash, its expiry moved forward (sliding, capped by the maximum
 * age) when it was last renewed over a minute ago; undefined when unknown or ended.
 */
export async function findActiveSession(
  db: Database,
  tokenHash: string,
  lifetime: SessionLifetime,
): Promise<ActiveSession | undefined> {
  const [row] = await selectSession(db).execute({ hash: tokenHash });
  const now = Date.now();
  if (!row || row.expiresAt.getTime() <= now) return undefined;
  if (now - row.renewedAt.getTime() < RENEW_EVERY_MS) {
    return { userId: row.userId, expiresAt: row.expiresAt };
  }
  const expiresAt = new Date(
    Math.min(
      now + lifetime.idleSeconds * 1000,
      row.createdAt.getTime() + lifetime.maxAgeSeconds * 1000,
    ),
  );
  await db
    .update(sessions)
    .set({ expiresAt, renewedAt: new Date(now) })
    .where(eq(sessions.tokenHash, tokenHash));
  return { userId: row.userId, expiresAt };
}

export async function deleteSession(db: Database, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ userId: sessions.userId });
  return row?.userId;
}

export async function deleteUserSessions(db: Database, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Ends every session of the user but `keepTokenHash` (all of them when it is undefined). */
export async function deleteOtherUserSessions(
  db: Database,
  userId: string,
  keepTokenHash: string | undefined,
): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(
      keepTokenHash === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return ended.length;
}
