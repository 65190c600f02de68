import type { Database } from '@checkline/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { preferences, strategySettings } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import type { LayerAddress, LayerRead, StoredLayer } from './config-layer.ts';
import { readLayer, storedLayer } from './config-layer.ts';
import type { RegisteredStrategy } from './registry.ts';
import type { ConfigProblem } from './schemas.ts';

/** A strategy's administrator settings, ready for `send`. */
export interface StrategySettings {
  enabled: boolean;
  /** A config is stored and reads under the current schema. */
  configured: boolean;
  config: unknown;
  /** The stored layout, or the layout schema's defaults when none is stored and they validate. */
  layoutConfig: unknown;
  problems: ConfigProblem[];
}

/** One user's settings for one strategy; a user who never saved any has the defaults. */
export interface UserChannelSettings {
  /** The user has stored settings for the channel (turned it on or off, configured, linked). */
  setUp: boolean;
  enabled: boolean;
  config: unknown;
  externalId: string | null;
  linkedAt: Date | null;
  /** The stored userConfig cannot be read (then `config` is undefined). */
  problems: ConfigProblem[];
}

export type StrategyRow = typeof strategySettings.$inferSelect;
export type PreferenceRow = typeof preferences.$inferSelect;

/** A strategy row's layers, decrypted and brought to the current versions. */
export interface StrategyRead {
  enabled: boolean;
  config: LayerRead;
  layoutConfig: LayerRead;
}

/** The problems of the layers read, each named by its layer. */
export const problemsOf = (reads: [ConfigProblem['layer'], LayerRead][]): ConfigProblem[] =>
  reads.flatMap(([layer, read]) =>
    read.state === 'problem' ? [{ layer, message: read.message }] : [],
  );

export const strategyProblems = (read: StrategyRead) =>
  problemsOf([
    ['config', read.config],
    ['layoutConfig', read.layoutConfig],
  ]);

export const strategyAddress = (
  strategyId: string,
  column: LayerAddress['column'],
): LayerAddress => ({
  table: 'strategy_settings',
  row: strategyId,
  column,
});

export const preferenceAddress = (userId: string, strategyId: string): LayerAddress => ({
  table: 'preferences',
  row: `${userId}/${strategyId}`,
  column: 'config',
});

type StrategyLayer = 'config' | 'layoutConfig';

/** Where each layer of a strategy row is stored, and how the log names it. */
const strategyLayerColumns = {
  config: { data: 'config', version: 'configVersion', noun: 'config' },
  layoutConfig: { data: 'layoutConfig', version: 'layoutVersion', noun: 'layout' },
} as const satisfies Record<
  StrategyLayer,
  { data: keyof StrategyRow; version: keyof StrategyRow; noun: string }
>;

/**
 * Writes a migrated layer back, re-sealed under its new version. The write is guarded by the
 * version it read, so a concurrent administrator's write is never overwritten by an older read.
 */
async function writeBackStrategyLayer(
  state: NotificationState,
  db: Database,
  strategyId: string,
  layer: StrategyLayer,
  readVersion: number,
  stored: StoredLayer,
): Promise<void> {
  const columns = strategyLayerColumns[layer];
  await db
    .update(strategySettings)
    .set({
      [columns.data]: stored.data,
      [columns.version]: stored.version,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(
      and(
        eq(strategySettings.strategyId, strategyId),
        eq(strategySettings[columns.version], readVersion),
      ),
    );
  state.logger.info(
    { strategyId, layer, from: readVersion, to: stored.version },
    `migrated a stored strategy ${columns.noun} to its current version`,
  );
}

/**
 * Reads a strategy row's layers; a layer that was migrated is written back with `db` (the
 * caller's transaction), see {@link writeBackStrategyLayer}.
 */
export async function readStrategyRow(
  state: NotificationState,
  db: Database,
  strategy: RegisteredStrategy,
  row: StrategyRow | undefined,
): Promise<StrategyRead> {
  if (!row) return { enabled: false, config: { state: 'empty' }, layoutConfig: { state: 'empty' } };
  const { qualifiedId } = strategy;
  const readStrategyLayer = (layer: StrategyLayer): LayerRead => {
    const versioned = strategy[layer];
    if (!versioned) return { state: 'empty' };
    const columns = strategyLayerColumns[layer];
    return readLayer(
      state.keyring,
      versioned,
      strategyAddress(qualifiedId, layer),
      storedLayer(row[columns.data], row[columns.version]),
    );
  };
  const read: StrategyRead = {
    enabled: row.enabled,
    config: readStrategyLayer('config'),
    layoutConfig: readStrategyLayer('layoutConfig'),
  };
  for (const layer of ['config', 'layoutConfig'] as const) {
    const layerRead = read[layer];
    if (layerRead.state === 'ok' && layerRead.migrated) {
      const readVersion = row[strategyLayerColumns[layer].version]!;
      await writeBackStrategyLayer(state, db, qualifiedId, layer, readVersion, layerRead.stored);
    }
  }
  for (const problem of strategyProblems(read)) {
    state.logger.warn(
      { strategyId: qualifiedId, layer: problem.layer, problem: problem.message },
      'a stored strategy config cannot be read',
    );
  }
  return read;
}

/** Reads a preference row's userConfig, writing a migrated one back like {@link readStrategyRow}. */
export async function readPreferenceConfig(
  state: NotificationState,
  db: Database,
  strategy: RegisteredStrategy,
  row: PreferenceRow | undefined,
): Promise<LayerRead> {
  if (!row || !strategy.userConfig) return { state: 'empty' };
  const read = readLayer(
    state.keyring,
    strategy.userConfig,
    preferenceAddress(row.userId, row.strategyId),
    storedLayer(row.config, row.configVersion),
  );
  if (read.state === 'ok' && read.migrated) {
    await db
      .update(preferences)
      .set({
        config: read.stored.data,
        configVersion: read.stored.version,
        updatedAt: sql`clock_timestamp()`,
      })
      .where(
        and(
          eq(preferences.userId, row.userId),
          eq(preferences.strategyId, row.strategyId),
          eq(preferences.configVersion, row.configVersion!),
        ),
      );
    state.logger.info(
      {
        strategyId: row.strategyId,
        userId: row.userId,
        layer: 'userConfig',
        from: row.configVersion,
        to: read.stored.version,
      },
      'migrated a stored user channel config to its current version',
    );
  }
  if (read.state === 'problem') {
    state.logger.warn(
      {
        strategyId: row.strategyId,
        userId: row.userId,
        layer: 'userConfig',
        problem: read.message,
      },
      'a stored user channel config cannot be read',
    );
  }
  return read;
}

/** The layout to send with: the stored one, else the schema's defaults when they validate. */
function layoutForSending(strategy: RegisteredStrategy, read: LayerRead): unknown {
  if (read.state === 'ok') return read.value;
  if (read.state === 'problem' || !strategy.layoutConfig) return undefined;
  const defaults = strategy.layoutConfig.schema.safeParse({});
  return defaults.success ? defaults.data : undefined;
}

const unconfigured = (): StrategySettings => ({
  enabled: false,
  configured: false,
  config: undefined,
  layoutConfig: undefined,
  problems: [],
});

/**
 * The settings of each registered strategy among `strategyIds`, in one query; secrets decrypted,
 * migrated layers written back with `db`.
 */
export async function loadStrategySettings(
  state: NotificationState,
  db: Database,
  strategyIds: readonly string[],
): Promise<Map<string, StrategySettings>> {
  const result = new Map<string, StrategySettings>();
  if (strategyIds.length === 0) return result;
  const rows = await db
    .select()
    .from(strategySettings)
    .where(inArray(strategySettings.strategyId, [...strategyIds]));
  const rowsById = new Map(rows.map((row) => [row.strategyId, row]));
  for (const id of strategyIds) {
    const strategy = state.strategies.get(id);
    if (!strategy) {
      result.set(id, unconfigured());
      continue;
    }
    const read = await readStrategyRow(state, db, strategy, rowsById.get(id));
    result.set(id, {
      enabled: read.enabled,
      configured: read.config.state === 'ok',
      config: read.config.state === 'ok' ? read.config.value : undefined,
      layoutConfig: layoutForSending(strategy, read.layoutConfig),
      problems: strategyProblems(read),
    });
  }
  return result;
}

/**
 * Each user's settings for `strategyId`, in one query; users without a row get the defaults.
 * Secrets decrypted, migrated configs written back with `db`.
 */
export async function loadUserChannels(
  state: NotificationState,
  db: Database,
  strategyId: string,
  userIds: readonly string[],
): Promise<Map<string, UserChannelSettings>> {
  const strategy = state.strategies.get(strategyId);
  const result = new Map<string, UserChannelSettings>();
  for (const userId of userIds) {
    result.set(userId, {
      setUp: false,
      enabled: true,
      config: undefined,
      externalId: null,
      linkedAt: null,
      problems: [],
    });
  }
  if (!strategy || userIds.length === 0) return result;
  const rows = await db
    .select()
    .from(preferences)
    .where(and(eq(preferences.strategyId, strategyId), inArray(preferences.userId, [...userIds])));
  for (const row of rows) {
    const read = await readPreferenceConfig(state, db, strategy, row);
    result.set(row.userId, {
      setUp: true,
      enabled: row.enabled,
      config: read.state === 'ok' ? read.value : undefined,
      externalId: row.externalId,
      linkedAt: row.linkedAt,
      problems: problemsOf([['userConfig', read]]),
    });
  }
  return result;
}

/** Records an OAuth link (the linking endpoints come later; tests and the service write it here). */
export async function linkExternalAccount(
  db: Database,
  link: { userId: string; strategyId: string; externalId: string },
): Promise<void> {
  await db
    .insert(preferences)
    .values({ ...link, linkedAt: new Date() })
    .onConflictDoUpdate({
      target: [preferences.userId, preferences.strategyId],
      set: { externalId: link.externalId, linkedAt: new Date(), updatedAt: sql`clock_timestamp()` },
    });
}
