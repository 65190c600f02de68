import type { Logger, RotationCounts } from '@checkline/core';
import { noRotation, rotateInBatches } from '@checkline/core';
import type { Database } from '@checkline/db';
import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { oauthTokens, preferences, strategySettings } from '../db/schema.ts';
import { tokenAadPrefix } from '../oauth/token-secrets.ts';
import { aadPrefixOf, type LayerAddress } from './config-layer.ts';
import type { Keyring } from '@checkline/core';
import { reencryptSecrets } from './secret-values.ts';

/** A column holding encrypted values: JSON with sealed strings inside, or one sealed string. */
interface EncryptedColumn<Row> {
  field: keyof Row & string;
  /** `{table}|{row}|{column}`: must be the AAD the writer used. */
  aadPrefix(row: Row): string;
}

/**
 * A table with encrypted columns, walked in key order. A table added later (OAuth tokens, say)
 * joins {@link encryptedTables} with its key order, its columns and how to save a row.
 */
export interface EncryptedTable<Row> {
  name: string;
  /** Up to `limit` rows after `after` (undefined: from the start), in key order. */
  batchAfter(db: Database, after: Row | undefined, limit: number): Promise<Row[]>;
  /** The row again, locked for update inside the rotation's short transaction. */
  lock(tx: Database, row: Row): Promise<Row | undefined>;
  columns: readonly EncryptedColumn<Row>[];
  save(tx: Database, row: Row, changed: Partial<Row>): Promise<void>;
}

type StrategyRow = typeof strategySettings.$inferSelect;
type PreferenceRow = typeof preferences.$inferSelect;

const address = (
  table: LayerAddress['table'],
  row: string,
  column: LayerAddress['column'],
): string => aadPrefixOf({ table, row, column });

const strategySettingsTable: EncryptedTable<StrategyRow> = {
  name: 'notification.strategy_settings',
  batchAfter: (db, after, limit) =>
    db
      .select()
      .from(strategySettings)
      .where(after ? gt(strategySettings.strategyId, after.strategyId) : undefined)
      .orderBy(asc(strategySettings.strategyId))
      .limit(limit),
  lock: async (tx, row) =>
    (
      await tx
        .select()
        .from(strategySettings)
        .where(eq(strategySettings.strategyId, row.strategyId))
        .for('update')
    )[0],
  columns: [
    { field: 'config', aadPrefix: (row) => address('strategy_settings', row.strategyId, 'config') },
    {
      field: 'layoutConfig',
      aadPrefix: (row) => address('strategy_settings', row.strategyId, 'layoutConfig'),
    },
  ],
  save: async (tx, row, changed) => {
    await tx
      .update(strategySettings)
      .set({ ...changed, updatedAt: sql`clock_timestamp()` })
      .where(eq(strategySettings.strategyId, row.strategyId));
  },
};

const preferenceRow = (row: PreferenceRow) =>
  and(eq(preferences.userId, row.userId), eq(preferences.strategyId, row.strategyId));

const preferencesTable: EncryptedTable<PreferenceRow> = {
  name: 'notification.preferences',
  batchAfter: (db, after, limit) =>
    db
      .select()
      .from(preferences)
      .where(
        after
          ? or(
              gt(preferences.userId, after.userId),
              and(
                eq(preferences.userId, after.userId),
                gt(preferences.strategyId, after.strategyId),
              ),
            )
          : undefined,
      )
      .orderBy(asc(preferences.userId), asc(preferences.strategyId))
      .limit(limit),
  lock: async (tx, row) =>
    (await tx.select().from(preferences).where(preferenceRow(row)).for('update'))[0],
  columns: [
    {
      field: 'config',
      aadPrefix: (row) => address('preferences', `${row.userId}/${row.strategyId}`, 'config'),
    },
  ],
  save: async (tx, row, changed) => {
    await tx
      .update(preferences)
      .set({ ...changed, updatedAt: sql`clock_timestamp()` })
      .where(preferenceRow(row));
  },
};

type TokenRow = typeof oauthTokens.$inferSelect;

const tokenRow = (row: TokenRow) =>
  and(eq(oauthTokens.userId, row.userId), eq(oauthTokens.strategyId, row.strategyId));

const oauthTokensTable: EncryptedTable<TokenRow> = {
  name: 'notification.oauth_tokens',
  batchAfter: (db, after, limit) =>
    db
      .select()
      .from(oauthTokens)
      .where(
        after
          ? or(
              gt(oauthTokens.userId, after.userId),
              and(
                eq(oauthTokens.userId, after.userId),
                gt(oauthTokens.strategyId, after.strategyId),
              ),
            )
          : undefined,
      )
      .orderBy(asc(oauthTokens.userId), asc(oauthTokens.strategyId))
      .limit(limit),
  // A row being refreshed is left alone: the refresh writes it anew under the current key, and
  // its compare-and-swap on the sealed refresh token must find the value it read.
  lock: async (tx, row) =>
    (
      await tx
        .select()
        .from(oauthTokens)
        .where(
          and(
            tokenRow(row),
            or(
              isNull(oauthTokens.refreshingUntil),
              lt(oauthTokens.refreshingUntil, sql`clock_timestamp()`),
            ),
          ),
        )
        .for('update')
    )[0],
  columns: [
    {
      field: 'accessTokenCiphertext',
      aadPrefix: (row) => tokenAadPrefix(row.userId, row.strategyId, 'accessToken'),
    },
    {
      field: 'refreshTokenCiphertext',
      aadPrefix: (row) => tokenAadPrefix(row.userId, row.strategyId, 'refreshToken'),
    },
  ],
  save: async (tx, row, changed) => {
    await tx
      .update(oauthTokens)
      .set({ ...changed, updatedAt: sql`clock_timestamp()` })
      .where(tokenRow(row));
  },
};

/** Every table with encrypted values that `secrets:rotate` walks. */
export const encryptedTables: readonly EncryptedTable<never>[] = [
  strategySettingsTable,
  preferencesTable,
  oauthTokensTable,
] as unknown as readonly EncryptedTable<never>[];

export type RotationResult = RotationCounts;

/** A row holds a value no key of the keyring decrypts. */
class RowRotationError extends Error {}

/** Re-encrypts one row in its own short transaction; answers how many values changed. */
async function rotateRow<Row>(
  db: Database,
  table: EncryptedTable<Row>,
  keyring: Keyring,
  seen: Row,
): Promise<number> {
  return await db.transaction(async (tx) => {
    const row = await table.lock(tx, seen);
    if (!row) return 0;
    let count = 0;
    const changed: Partial<Row> = {};
    for (const column of table.columns) {
      const stored = row[column.field];
      if (stored === null || stored === undefined) continue;
      const aadPrefix = column.aadPrefix(row);
      let rotated: ReturnType<typeof reencryptSecrets>;
      try {
        rotated = reencryptSecrets(stored, keyring, aadPrefix);
      } catch (error) {
        // The prefix names table, row and column; the error names the key id only.
        throw new RowRotationError(
          `${aadPrefix}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const { value, reencrypted } = rotated;
      if (reencrypted === 0) continue;
      count += reencrypted;
      changed[column.field] = value as Row[keyof Row & string];
    }
    if (count > 0) await table.save(tx, row, changed);
    return count;
  });
}

/**
 * Re-encrypts every encrypted value under the keyring's current key, row by row in short
 * transactions; values already under it are left alone, so a second run changes nothing. A row
 * with a value no key decrypts is left unchanged, logged with its table and row (never the value)
 * and counted in `failed`; the run goes on.
 */
export async function rotateSecrets(
  db: Database,
  keyring: Keyring,
  logger: Logger,
  tables: readonly EncryptedTable<never>[] = encryptedTables,
  batchSize = 100,
): Promise<RotationResult> {
  const total = noRotation();
  logger.info(
    { keyId: keyring.currentKeyId },
    're-encrypting stored secrets under the current key',
  );
  for (const table of tables as unknown as readonly EncryptedTable<unknown>[]) {
    const counts = await rotateInBatches<unknown>({
      table: table.name,
      logger,
      batchSize,
      batchAfter: (after, limit) => table.batchAfter(db, after, limit),
      rotateRow: (row) => rotateRow(db, table, keyring, row),
      skipped: (error) =>
        error instanceof RowRotationError ? { problem: error.message } : undefined,
    });
    total.rows += counts.rows;
    total.reencrypted += counts.reencrypted;
    total.rowsChanged += counts.rowsChanged;
    total.failed += counts.failed;
  }
  logger.info({ keyId: keyring.currentKeyId, ...total }, 'secret rotation done');
  return total;
}
