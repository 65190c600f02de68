import type { Database } from '@checkline/db';
import { preferences, strategySettings } from '../db/schema.ts';

/**
 * An administrator's settings of a strategy written straight into its row, as plain JSON at
 * version 1 (for tests without secret fields; real writes go through updateStrategy).
 */
export async function writeStrategySettings(
  db: Database,
  strategyId: string,
  settings: { enabled?: boolean; config?: unknown; layoutConfig?: unknown } = {},
) {
  const values = {
    strategyId,
    enabled: settings.enabled ?? true,
    config: settings.config ?? {},
    configVersion: 1,
    ...(settings.layoutConfig !== undefined && {
      layoutConfig: settings.layoutConfig,
      layoutVersion: 1,
    }),
  };
  await db
    .insert(strategySettings)
    .values(values)
    .onConflictDoUpdate({ target: strategySettings.strategyId, set: values });
}

/** A user's own settings of a strategy written straight into the preferences row. */
export async function writeUserChannel(
  db: Database,
  userId: string,
  strategyId: string,
  channel: { enabled?: boolean; config?: unknown },
) {
  const values = {
    userId,
    strategyId,
    enabled: channel.enabled ?? true,
    ...(channel.config !== undefined && { config: channel.config, configVersion: 1 }),
  };
  await db
    .insert(preferences)
    .values(values)
    .onConflictDoUpdate({ target: [preferences.userId, preferences.strategyId], set: values });
}
