import type { Database } from '@checkline/db';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { oauthStates } from '../db/schema.ts';
import type { Keyring } from '@checkline/core';
import { codeVerifier, randomState, stateHash } from './pkce.ts';
import { openVerifier, sealVerifier } from './token-secrets.ts';

/** How long a started link may take to come back. */
const STATE_LIFETIME_MS = 10 * 60_000;

export interface StartedLink {
  /** The platform's random part of `state`. */
  state: string;
  codeVerifier: string;
}

export interface ConsumedState {
  userId: string;
  strategyId: string;
  returnPath: string;
  codeVerifier: string;
}

/** Stores a new single-use state for `userId`; forgets states that ended long ago. */
export async function createState(
  db: Database,
  keyring: Keyring,
  input: { userId: string; strategyId: string; returnPath: string; now?: Date },
): Promise<StartedLink> {
  const now = input.now ?? new Date();
  const state = randomState();
  const verifier = codeVerifier();
  const hash = stateHash(state);
  await db
    .delete(oauthStates)
    .where(lt(oauthStates.expiresAt, new Date(now.getTime() - STATE_LIFETIME_MS)));
  await db.insert(oauthStates).values({
    stateHash: hash,
    userId: input.userId,
    strategyId: input.strategyId,
    codeVerifierCiphertext: sealVerifier(keyring, verifier, hash),
    returnPath: input.returnPath,
    expiresAt: new Date(now.getTime() + STATE_LIFETIME_MS),
  });
  return { state, codeVerifier: verifier };
}

/**
 * Marks the state used and answers what it holds, only when it exists, belongs to `userId` and
 * `strategyId`, has not expired and was never used; one statement, so two callbacks with the
 * same state cannot both pass. Someone else's state is left as it was.
 */
export async function consumeState(
  db: Database,
  keyring: Keyring,
  input: { state: string; userId: string; strategyId: string },
): Promise<ConsumedState | undefined> {
  const hash = stateHash(input.state);
  const [row] = await db
    .update(oauthStates)
    .set({ usedAt: sql`clock_timestamp()` })
    .where(
      and(
        eq(oauthStates.stateHash, hash),
        eq(oauthStates.userId, input.userId),
        eq(oauthStates.strategyId, input.strategyId),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, sql`clock_timestamp()`),
      ),
    )
    .returning();
  if (!row) return undefined;
  return {
    userId: row.userId,
    strategyId: row.strategyId,
    returnPath: row.returnPath,
    codeVerifier: openVerifier(keyring, row.codeVerifierCiphertext, hash),
  };
}
