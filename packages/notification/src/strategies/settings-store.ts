import type { Database } from '@checkline/db';
import { and, eq, inArray } from 'drizzle-orm';
import { preferences, strategySettings } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import type { ConfigProblem } from './schemas.ts';
import { readVersioned } from './versioned-schema.ts';

/** A strategy's administrator settings, ready for `send`. */
export interface StrategySettings {
  enabled: boolean;
  /** A config is stored and reads under the current schema. */
  configured: boolean;
  config: unknown;
  layoutConfig: unknown;
  problems: ConfigProblem[];
}

/** One user's settings for one strategy; a user who never saved any has the defaults. */
export interface UserChannelSettings {
  enabled: boolean;
  config: unknown;
  externalId: string | null;
  linkedAt: Date | null;
}

const unconfigured = (): StrategySettings => ({
  enabled: false,
  configured: false,
  config: undefined,
  layoutConfig: undefined,
  problems: [],
});

/**
 * The settings of each registered strategy among `strategyIds`, in one query.
 * (First version: plain JSON; encryption and write-back of migrated layers come with the config store.)
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
  for (const id of strategyIds) result.set(id, unconfigured());
  for (const row of rows) {
    const strategy = state.strategies.get(row.strategyId);
    if (!strategy) continue;
    const settings: StrategySettings = { ...unconfigured(), enabled: row.enabled };
    if (row.config !== null && row.configVersion !== null) {
      try {
        settings.config = readVersioned(strategy.config, {
          version: row.configVersion,
          data: row.config,
        }).value;
        settings.configured = true;
      } catch (error) {
        settings.problems.push({ layer: 'config', message: (error as Error).message });
      }
    }
    if (strategy.layoutConfig && row.layoutConfig !== null && row.layoutVersion !== null) {
      try {
        settings.layoutConfig = readVersioned(strategy.layoutConfig, {
          version: row.layoutVersion,
          data: row.layoutConfig,
        }).value;
      } catch (error) {
        settings.problems.push({ layer: 'layoutConfig', message: (error as Error).message });
      }
    }
    result.set(row.strategyId, settings);
  }
  return result;
}

/** Each user's settings for `strategyId`, in one query; users without a row get the defaults. */
export async function loadUserChannels(
  state: NotificationState,
  db: Database,
  strategyId: string,
  userIds: readonly string[],
): Promise<Map<string, UserChannelSettings>> {
  const strategy = state.strategies.get(strategyId);
  const result = new Map<string, UserChannelSettings>();
  for (const userId of userIds) {
    result.set(userId, { enabled: true, config: undefined, externalId: null, linkedAt: null });
  }
  if (!strategy || userIds.length === 0) return result;
  const rows = await db
    .select()
    .from(preferences)
    .where(and(eq(preferences.strategyId, strategyId), inArray(preferences.userId, [...userIds])));
  for (const row of rows) {
    let config: unknown;
    if (strategy.userConfig && row.config !== null && row.configVersion !== null) {
      try {
        config = readVersioned(strategy.userConfig, {
          version: row.configVersion,
          data: row.config,
        }).value;
      } catch {
        config = undefined;
      }
    }
    result.set(row.userId, {
      enabled: row.enabled,
      config,
      externalId: row.externalId,
      linkedAt: row.linkedAt,
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
      set: { externalId: link.externalId, linkedAt: new Date() },
    });
}
