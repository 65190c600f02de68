import { boundSecretFields, changedDestinations, markedFields } from '@checkline/core';
import type { Database } from '@checkline/db';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { oauthTokens, preferences } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import { isEncryptedValue } from '@checkline/core';
import type { RegisteredStrategy } from './registry.ts';

/** Stored data with every sealed value (every secret, whatever version wrote it) left out. */
function withoutSealed(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map((item) => (isEncryptedValue(item) ? null : withoutSealed(item)));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => !isEncryptedValue(item))
      .map(([key, item]) => [key, withoutSealed(item)]),
  );
}

const namesOwnDestination = (config: unknown, paths: readonly (readonly string[])[]) =>
  paths.some((path) => {
    const value = path.reduce<unknown>(
      (node, key) =>
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[key]
          : undefined,
      config,
    );
    return value !== undefined && value !== null && value !== '';
  });

/** Drops every user's linked tokens of `strategy`: they would be sent to the new address. */
async function dropLinkedTokens(db: Database, strategy: RegisteredStrategy): Promise<number> {
  const removed = await db
    .delete(oauthTokens)
    .where(eq(oauthTokens.strategyId, strategy.qualifiedId))
    .returning({ userId: oauthTokens.userId });
  await db
    .update(preferences)
    .set({ externalId: null, linkedAt: null, updatedAt: sql`clock_timestamp()` })
    .where(
      and(eq(preferences.strategyId, strategy.qualifiedId), isNotNull(preferences.externalId)),
    );
  return removed.length;
}

/** Strips the secrets of stored user configs that name no destination of their own. */
async function dropUserConfigSecrets(db: Database, strategy: RegisteredStrategy): Promise<number> {
  if (!strategy.userConfig) return 0;
  const ownDestinations = markedFields(strategy.userConfig.schema, 'x-destination').map(
    (field) => field.path,
  );
  const rows = await db
    .select()
    .from(preferences)
    .where(and(eq(preferences.strategyId, strategy.qualifiedId), isNotNull(preferences.config)))
    .for('update');
  let dropped = 0;
  for (const row of rows) {
    if (namesOwnDestination(row.config, ownDestinations)) continue;
    const stripped = withoutSealed(row.config);
    if (JSON.stringify(stripped) === JSON.stringify(row.config)) continue;
    await db
      .update(preferences)
      .set({ config: stripped, updatedAt: sql`clock_timestamp()` })
      .where(and(eq(preferences.userId, row.userId), eq(preferences.strategyId, row.strategyId)));
    dropped += 1;
  }
  return dropped;
}

/**
 * When the administrator moves a destination users are sent to as well (ntfy's default server,
 * Slack's address), what users entered for the old one goes: the secrets of user configs that
 * name no destination of their own, and every linked account's tokens (in the caller's
 * transaction). Users enter them again, or link again. Answers how many were dropped.
 */
export async function dropUserSecretsBoundToMovedDefault(
  state: NotificationState,
  db: Database,
  strategy: RegisteredStrategy,
  before: unknown,
  after: unknown,
): Promise<{ userConfigs: number; links: number }> {
  const moved = changedDestinations(
    before,
    after,
    boundSecretFields(strategy.config.schema).userFallbackDestinations,
  );
  if (moved.length === 0) return { userConfigs: 0, links: 0 };
  const dropped = {
    userConfigs: await dropUserConfigSecrets(db, strategy),
    links: strategy.oauth ? await dropLinkedTokens(db, strategy) : 0,
  };
  if (dropped.userConfigs + dropped.links > 0) {
    state.logger.info(
      { strategyId: strategy.qualifiedId, moved, ...dropped },
      'a destination users are sent to moved: their secrets and linked tokens were dropped',
    );
  }
  return dropped;
}
