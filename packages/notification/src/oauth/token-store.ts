import type { Database } from '@checkline/db';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { oauthTokens, preferences } from '../db/schema.ts';
import type { Keyring } from '@checkline/core';
import { linkExternalAccount } from '../strategies/settings-store.ts';
import type { TokenColumn } from './token-secrets.ts';
import { openToken, sealToken } from './token-secrets.ts';

export interface LinkKey {
  userId: string;
  strategyId: string;
}

/** A stored link's tokens, decrypted. */
export interface StoredLink extends LinkKey {
  accessToken: string;
  refreshToken: string | undefined;
  /** The stored (sealed) refresh token: the compare-and-swap guard of a refresh. */
  refreshGuard: string | null;
  expiresAt: Date | null;
  scopes: string[];
  needsRelink: boolean;
}

export interface NewTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresIn?: number | undefined;
  scopes?: readonly string[] | undefined;
}

const whereLink = (key: LinkKey) =>
  and(eq(oauthTokens.userId, key.userId), eq(oauthTokens.strategyId, key.strategyId));

const expiry = (expiresIn: number | undefined, now: Date) =>
  expiresIn === undefined ? null : new Date(now.getTime() + expiresIn * 1000);

const seal = (keyring: Keyring, key: LinkKey, column: TokenColumn, token: string) =>
  sealToken(keyring, token, { ...key, column });

/**
 * Stores a new link: the tokens (encrypted) and, on the user's preference, the external id and
 * `linked_at`. Run it in one transaction with the caller's.
 */
export async function saveLink(
  db: Database,
  keyring: Keyring,
  link: LinkKey & { externalId: string; tokens: NewTokens; now?: Date },
): Promise<void> {
  const key = { userId: link.userId, strategyId: link.strategyId };
  const { tokens } = link;
  const values = {
    accessTokenCiphertext: seal(keyring, key, 'accessToken', tokens.accessToken),
    refreshTokenCiphertext: tokens.refreshToken
      ? seal(keyring, key, 'refreshToken', tokens.refreshToken)
      : null,
    expiresAt: expiry(tokens.expiresIn, link.now ?? new Date()),
    scopes: [...(tokens.scopes ?? [])],
    refreshingUntil: null,
    needsRelink: false,
  };
  await db
    .insert(oauthTokens)
    .values({ ...key, ...values })
    .onConflictDoUpdate({
      target: [oauthTokens.userId, oauthTokens.strategyId],
      set: { ...values, updatedAt: sql`clock_timestamp()` },
    });
  await linkExternalAccount(db, { ...key, externalId: link.externalId });
}

/** The user's link on the strategy, decrypted; undefined when there is none. */
export async function readLink(
  db: Database,
  keyring: Keyring,
  key: LinkKey,
): Promise<StoredLink | undefined> {
  const [row] = await db.select().from(oauthTokens).where(whereLink(key));
  if (!row) return undefined;
  return {
    ...key,
    accessToken: openToken(keyring, row.accessTokenCiphertext, { ...key, column: 'accessToken' }),
    refreshToken:
      row.refreshTokenCiphertext === null
        ? undefined
        : openToken(keyring, row.refreshTokenCiphertext, { ...key, column: 'refreshToken' }),
    refreshGuard: row.refreshTokenCiphertext,
    expiresAt: row.expiresAt,
    scopes: row.scopes,
    needsRelink: row.needsRelink,
  };
}

/** Removes the tokens and, on the preference, the external id and `linked_at`. */
export async function removeLink(db: Database, key: LinkKey): Promise<boolean> {
  const removed = await db.delete(oauthTokens).where(whereLink(key)).returning();
  const unlinked = await db
    .update(preferences)
    .set({ externalId: null, linkedAt: null, updatedAt: sql`clock_timestamp()` })
    .where(
      and(
        eq(preferences.userId, key.userId),
        eq(preferences.strategyId, key.strategyId),
        sql`${preferences.externalId} is not null`,
      ),
    )
    .returning();
  return removed.length > 0 || unlinked.length > 0;
}

/**
 * Takes the right to refresh: only while the stored refresh token is still `guard` (nobody
 * refreshed it meanwhile) and no other process holds an unexpired claim. One winner per token.
 */
export async function claimRefresh(
  db: Database,
  key: LinkKey,
  guard: string,
  leaseMs: number,
): Promise<boolean> {
  const claimed = await db
    .update(oauthTokens)
    .set({ refreshingUntil: sql`clock_timestamp() + ${`${leaseMs} milliseconds`}::interval` })
    .where(
      and(
        whereLink(key),
        eq(oauthTokens.refreshTokenCiphertext, guard),
        eq(oauthTokens.needsRelink, false),
        or(
          isNull(oauthTokens.refreshingUntil),
          lt(oauthTokens.refreshingUntil, sql`clock_timestamp()`),
        ),
      ),
    )
    .returning({ userId: oauthTokens.userId });
  return claimed.length > 0;
}

/** Stores a refresh's tokens where the refresh token is still `guard`; a kept refresh token stays. */
export async function storeRefreshed(
  db: Database,
  keyring: Keyring,
  key: LinkKey,
  guard: string,
  tokens: NewTokens & { now?: Date },
): Promise<boolean> {
  const stored = await db
    .update(oauthTokens)
    .set({
      accessTokenCiphertext: seal(keyring, key, 'accessToken', tokens.accessToken),
      ...(tokens.refreshToken && {
        refreshTokenCiphertext: seal(keyring, key, 'refreshToken', tokens.refreshToken),
      }),
      expiresAt: expiry(tokens.expiresIn, tokens.now ?? new Date()),
      ...(tokens.scopes && tokens.scopes.length > 0 && { scopes: [...tokens.scopes] }),
      refreshingUntil: null,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(and(whereLink(key), eq(oauthTokens.refreshTokenCiphertext, guard)))
    .returning({ userId: oauthTokens.userId });
  return stored.length > 0;
}

/** Gives a claim back after a refresh that failed for a passing reason. */
export async function releaseRefresh(db: Database, key: LinkKey, guard: string): Promise<void> {
  await db
    .update(oauthTokens)
    .set({ refreshingUntil: null })
    .where(and(whereLink(key), eq(oauthTokens.refreshTokenCiphertext, guard)));
}

/** Marks the link as needing a new link; true only for the call that changed it. */
export async function markNeedsRelink(db: Database, key: LinkKey): Promise<boolean> {
  const marked = await db
    .update(oauthTokens)
    .set({ needsRelink: true, refreshingUntil: null, updatedAt: sql`clock_timestamp()` })
    .where(and(whereLink(key), eq(oauthTokens.needsRelink, false)))
    .returning({ userId: oauthTokens.userId });
  return marked.length > 0;
}
