import { badRequest, notFound } from '@checkline/core';
import type { InputIssue } from '@checkline/core';
import type { Database } from '@checkline/db';
import { eq, inArray, sql } from 'drizzle-orm';
import { strategySettings } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import type { StoredLayer } from './config-layer.ts';
import { prepareLayerWrite, publicLayer } from './config-layer.ts';
import { layerJsonSchema } from './json-schema.ts';
import type { RegisteredStrategy } from './registry.ts';
import { useRuleOf } from './registry.ts';
import type { StrategyView, UpdateStrategyInput } from './schemas.ts';
import type { StrategyRead } from './settings-store.ts';
import { readStrategyRow, strategyAddress, strategyProblems } from './settings-store.ts';
import { dropUserSecretsBoundToMovedDefault } from './user-fallback-destination.ts';
import { strategyLayerIssues } from './validate-layer.ts';

function strategyView(strategy: RegisteredStrategy, read: StrategyRead): StrategyView {
  const config = publicLayer(strategy.config, read.config);
  const layout = publicLayer(strategy.layoutConfig, read.layoutConfig);
  return {
    strategyId: strategy.qualifiedId,
    ownerPluginId: strategy.ownerPluginId,
    displayName: strategy.displayName,
    description: strategy.description ?? null,
    icon: strategy.icon ?? null,
    adminInstructions: strategy.adminInstructions ?? null,
    userInstructions: strategy.userInstructions ?? null,
    contactResolution: strategy.contactResolution.type,
    useRule: useRuleOf(strategy),
    enabled: read.enabled,
    configured: read.config.state === 'ok',
    config: config.values,
    configSecrets: config.secrets,
    layoutConfig: layout.values,
    layoutSecrets: layout.secrets,
    schemas: {
      config: layerJsonSchema(strategy.config.schema),
      userConfig: strategy.userConfig ? layerJsonSchema(strategy.userConfig.schema) : null,
      layoutConfig: strategy.layoutConfig ? layerJsonSchema(strategy.layoutConfig.schema) : null,
    },
    versions: {
      config: strategy.config.version,
      userConfig: strategy.userConfig?.version ?? null,
      layoutConfig: strategy.layoutConfig?.version ?? null,
    },
    problems: strategyProblems(read),
  };
}

/**
 * Every registered strategy with its settings; run it in a transaction, which then also holds
 * the write-back of migrated layers.
 */
export async function listStrategies(
  state: NotificationState,
  db: Database,
): Promise<StrategyView[]> {
  const registered = state.strategies.list();
  if (registered.length === 0) return [];
  const rows = await db
    .select()
    .from(strategySettings)
    .where(
      inArray(
        strategySettings.strategyId,
        registered.map((strategy) => strategy.qualifiedId),
      ),
    );
  const rowsById = new Map(rows.map((row) => [row.strategyId, row]));
  const views: StrategyView[] = [];
  for (const strategy of registered) {
    const read = await readStrategyRow(state, db, strategy, rowsById.get(strategy.qualifiedId));
    views.push(strategyView(strategy, read));
  }
  return views;
}

/** The registered strategy `strategyId`, or NOT_FOUND, the same answer for every procedure. */
export function findStrategy(state: NotificationState, strategyId: string): RegisteredStrategy {
  const strategy = state.strategies.get(strategyId);
  if (!strategy) throw notFound('Notification strategy', strategyId);
  return strategy;
}

/**
 * Stores what `input` changes, in the caller's transaction. Enabling needs a config that reads
 * under the current schema (stored before, or given in the same call); otherwise BAD_REQUEST.
 */
export async function updateStrategy(
  state: NotificationState,
  db: Database,
  input: UpdateStrategyInput,
): Promise<StrategyView> {
  const strategy = findStrategy(state, input.strategyId);
  const [row] = await db
    .select()
    .from(strategySettings)
    .where(eq(strategySettings.strategyId, strategy.qualifiedId))
    .for('update');
  const before = await readStrategyRow(state, db, strategy, row);
  const issues: InputIssue[] = [];
  const checks: Promise<InputIssue[]>[] = [];
  const written: Partial<Record<'config' | 'layoutConfig', unknown>> = {};
  const prepare = (layer: 'config' | 'layoutConfig', value: unknown): StoredLayer | undefined => {
    const versioned = strategy[layer];
    if (!versioned) {
      issues.push({ path: layer, message: 'This strategy has no layout config' });
      return undefined;
    }
    const write = prepareLayerWrite(
      state.keyring,
      versioned,
      strategyAddress(strategy.qualifiedId, layer),
      layer,
      value,
      before[layer],
    );
    if (!write.ok) {
      issues.push(...write.issues);
      return undefined;
    }
    checks.push(strategyLayerIssues(strategy, { layer, value: write.value }, layer));
    written[layer] = write.value;
    return write.stored;
  };
  const config = input.config === undefined ? undefined : prepare('config', input.config);
  const layout =
    input.layoutConfig === undefined ? undefined : prepare('layoutConfig', input.layoutConfig);
  if (issues.length === 0) issues.push(...(await Promise.all(checks)).flat());
  if (issues.length > 0) throw badRequest('Invalid strategy settings', issues);
  const configured = config !== undefined || before.config.state === 'ok';
  if (input.enabled === true && !configured) {
    throw badRequest(
      `Notification strategy ${strategy.qualifiedId} is not configured: store a valid config before enabling it`,
      [{ path: 'enabled', message: 'The strategy has no valid config' }],
    );
  }
  const changes = {
    ...(input.enabled !== undefined && { enabled: input.enabled }),
    ...(config && { config: config.data, configVersion: config.version }),
    ...(layout && { layoutConfig: layout.data, layoutVersion: layout.version }),
  };
  if (config && before.config.state === 'ok') {
    await dropUserSecretsBoundToMovedDefault(
      state,
      db,
      strategy,
      before.config.value,
      written.config,
    );
  }
  const [saved] = await db
    .insert(strategySettings)
    .values({ strategyId: strategy.qualifiedId, ...changes })
    .onConflictDoUpdate({
      target: strategySettings.strategyId,
      set: { ...changes, updatedAt: sql`clock_timestamp()` },
    })
    .returning();
  state.logger.info(
    {
      strategyId: strategy.qualifiedId,
      enabled: saved!.enabled,
      changed: Object.keys(changes).filter((key) => !key.endsWith('Version')),
    },
    'notification strategy settings changed',
  );
  return strategyView(strategy, await readStrategyRow(state, db, strategy, saved));
}
