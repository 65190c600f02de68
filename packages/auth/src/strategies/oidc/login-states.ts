import type { Database } from '@checkline/db';
import { and, eq, lt } from 'drizzle-orm';
import { loginStates } from '../../db/schema.ts';
import { sha256Hex } from '../../sha256.ts';

/** How long a started sign-in may take at the provider. */
export const LOGIN_STATE_TTL_MS = 10 * 60_000;

export interface LoginState {
  provider: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string;
}

/** Keeps a started sign-in under the hash of its `state`; clears the ones that expired. */
export async function saveLoginState(
  db: Database,
  state: string,
  login: LoginState,
  now = Date.now(),
): Promise<void> {
  await db.insert(loginStates).values({
    stateHash: sha256Hex(state),
    ...login,
    expiresAt: new Date(now + LOGIN_STATE_TTL_MS),
  });
  await db.delete(loginStates).where(lt(loginStates.expiresAt, new Date(now)));
}

/**
 * The sign-in `state` started with `provider`, removed as it is read: a second callback with
 * the same state finds nothing. Undefined when unknown, another provider's, or expired.
 */
export async function takeLoginState(
  db: Database,
  provider: string,
  state: string,
  now = Date.now(),
): Promise<LoginState | undefined> {
  const [row] = await db
    .delete(loginStates)
    .where(and(eq(loginStates.stateHash, sha256Hex(state)), eq(loginStates.provider, provider)))
    .returning();
  if (!row || row.expiresAt.getTime() <= now) return undefined;
  return {
    provider: row.provider,
    codeVerifier: row.codeVerifier,
    nonce: row.nonce,
    returnTo: row.returnTo,
  };
}
