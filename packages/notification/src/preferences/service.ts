import type { Principal } from '@checkline/core';
import { badRequest, missingAccess } from '@checkline/core';
import type { Database } from '@checkline/db';
import { and, eq, sql } from 'drizzle-orm';
import { preferences } from '../db/schema.ts';
import type { LinkStatus } from '../oauth/link-status.ts';
import { linkPathOf, linkStatusesOf } from '../oauth/link-status.ts';
import type { NotificationState } from '../state.ts';
import type { LayerRead, StoredLayer } from '../strategies/config-layer.ts';
import { prepareLayerWrite, publicLayer } from '../strategies/config-layer.ts';
import { layerJsonSchema } from '../strategies/json-schema.ts';
import type { RegisteredStrategy } from '../strategies/registry.ts';
import { mayUseStrategy, useRuleOf } from '../strategies/registry.ts';
import { findStrategy } from '../strategies/service.ts';
import type { PreferenceRow } from '../strategies/settings-store.ts';
import {
  loadStrategySettings,
  preferenceAddress,
  problemsOf,
  readPreferenceConfig,
} from '../strategies/settings-store.ts';
import { strategyLayerIssues } from '../strategies/validate-layer.ts';
import type { Channel, ChannelLink, UpdateMyChannelInput } from './schemas.ts';

/** A link is its token row; the external id and `linked_at` are on the preference beside it. */
function linkView(
  strategy: RegisteredStrategy,
  row: PreferenceRow | undefined,
  status: LinkStatus | undefined,
): ChannelLink {
  const linked = status !== undefined;
  return {
    linked,
    linkedAt: linked ? (row?.linkedAt?.toISOString() ?? null) : null,
    externalId: linked ? (row?.externalId ?? null) : null,
    needsRelink: status?.needsRelink ?? false,
    linkUrl: linkPathOf(strategy.qualifiedId),
  };
}

function channelView(
  strategy: RegisteredStrategy,
  row: PreferenceRow | undefined,
  read: LayerRead,
  links: Map<string, LinkStatus>,
): Channel {
  const config = publicLayer(strategy.userConfig, read);
  return {
    strategyId: strategy.qualifiedId,
    displayName: strategy.displayName,
    description: strategy.description ?? null,
    icon: strategy.icon ?? null,
    userInstructions: strategy.userInstructions ?? null,
    contactResolution: strategy.contactResolution.type,
    enabled: row?.enabled ?? true,
    config: config.values,
    configSecrets: config.secrets,
    userConfigSchema: strategy.userConfig ? layerJsonSchema(strategy.userConfig.schema) : null,
    linked: row?.externalId != null,
    linkedAt: row?.linkedAt?.toISOString() ?? null,
    ...(strategy.oauth && { link: linkView(strategy, row, links.get(strategy.qualifiedId)) }),
    problems: problemsOf([['userConfig', read]]),
  };
}

/** The user's links, read only when one of the strategies links accounts. */
const linksFor = async (db: Database, userId: string, strategies: RegisteredStrategy[]) =>
  strategies.some((strategy) => strategy.oauth)
    ? await linkStatusesOf(db, userId)
    : new Map<string, LinkStatus>();

/** A channel an application may set: only one that reaches applications (the webhook). */
const reachableBy = (principal: Principal, strategy: RegisteredStrategy) =>
  principal.kind !== 'application' || strategy.reachesApplications === true;

/**
 * The strategies `userId` may use (its `.use` rule) that an administrator has enabled and
 * configured, with the user's settings; run it in a transaction (it writes migrated configs back).
 * For an application (`userId` its id), only the strategies that reach applications.
 */
export async function listMyChannels(
  state: NotificationState,
  db: Database,
  principal: Principal,
  userId: string,
): Promise<Channel[]> {
  const usable = state.strategies
    .list()
    .filter((strategy) => mayUseStrategy(principal, strategy) && reachableBy(principal, strategy));
  const settings = await loadStrategySettings(
    state,
    db,
    usable.map((strategy) => strategy.qualifiedId),
  );
  const open = usable.filter((strategy) => {
    const strategySettings = settings.get(strategy.qualifiedId);
    return strategySettings?.enabled && strategySettings.configured;
  });
  if (open.length === 0) return [];
  const rows = await db.select().from(preferences).where(eq(preferences.userId, userId));
  const rowsByStrategy = new Map(rows.map((row) => [row.strategyId, row]));
  const links = await linksFor(db, userId, open);
  const channels: Channel[] = [];
  for (const strategy of open) {
    const row = rowsByStrategy.get(strategy.qualifiedId);
    const read = await readPreferenceConfig(state, db, strategy, row);
    channels.push(channelView(strategy, row, read, links));
  }
  return channels;
}

/**
 * Changes the caller's switch or settings for one strategy, in the caller's transaction. The
 * `.use` rule is required (FORBIDDEN otherwise); `config` is validated against userConfig, with
 * the secret rules of every config layer. An application (`userId` its id) may set only a
 * strategy that reaches applications (BAD_REQUEST otherwise).
 */
export async function updateMyChannel(
  state: NotificationState,
  db: Database,
  principal: Principal,
  userId: string,
  input: UpdateMyChannelInput,
): Promise<Channel> {
  const strategy = findStrategy(state, input.strategyId);
  if (!reachableBy(principal, strategy)) {
    throw badRequest(`Channel ${strategy.qualifiedId} does not reach applications`, [
      {
        path: 'strategyId',
        message: 'Applications are reached only through a channel that reaches them (the webhook)',
      },
    ]);
  }
  if (!mayUseStrategy(principal, strategy)) {
    throw missingAccess(useRuleOf(strategy));
  }
  const [row] = await db
    .select()
    .from(preferences)
    .where(and(eq(preferences.userId, userId), eq(preferences.strategyId, strategy.qualifiedId)))
    .for('update');
  let config: StoredLayer | undefined;
  if (input.config !== undefined) {
    if (!strategy.userConfig) {
      throw badRequest('Invalid channel settings', [
        { path: 'config', message: 'This channel has no user settings' },
      ]);
    }
    const before = await readPreferenceConfig(state, db, strategy, row);
    const write = prepareLayerWrite(
      state.keyring,
      strategy.userConfig,
      preferenceAddress(userId, strategy.qualifiedId),
      'config',
      input.config,
      before,
    );
    if (!write.ok) throw badRequest('Invalid channel settings', write.issues);
    const issues = await strategyLayerIssues(
      strategy,
      { layer: 'userConfig', value: write.value },
      'config',
    );
    if (issues.length > 0) throw badRequest('Invalid channel settings', issues);
    config = write.stored;
  }
  const changes = {
    ...(input.enabled !== undefined && { enabled: input.enabled }),
    ...(config && { config: config.data, configVersion: config.version }),
  };
  const [saved] = await db
    .insert(preferences)
    .values({ userId, strategyId: strategy.qualifiedId, ...changes })
    .onConflictDoUpdate({
      target: [preferences.userId, preferences.strategyId],
      set: { ...changes, updatedAt: sql`clock_timestamp()` },
    })
    .returning();
  const read = await readPreferenceConfig(state, db, strategy, saved);
  return channelView(strategy, saved, read, await linksFor(db, userId, [strategy]));
}
