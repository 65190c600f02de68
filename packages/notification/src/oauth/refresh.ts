import { insertNotifications } from '../inbox/service.ts';
import type { NotificationState } from '../state.ts';
import type { RegisteredStrategy } from '../strategies/registry.ts';
import { OAuthProviderError, refreshAtProvider } from './provider.ts';
import type { LinkKey, StoredLink } from './token-store.ts';
import {
  claimRefresh,
  markNeedsRelink,
  readLink,
  releaseRefresh,
  storeRefreshed,
} from './token-store.ts';

/** Tokens expiring sooner than this are refreshed before they are used. */
const REFRESH_MARGIN_MS = 60_000;
/** A refreshing process holds its claim this long at most (then another may take over). */
const REFRESH_LEASE_MS = 30_000;
/** How long a process waits for another's refresh before giving up for this time. */
const WAIT_FOR_OTHER_MS = 15_000;
const POLL_MS = 25;

const RELINK_REASON =
  'The linked account must be linked again: the provider refused to renew access';

export type TokenOutcome =
  /** The user has no tokens on this strategy. */
  | { kind: 'none' }
  | { kind: 'token'; link: StoredLink; refreshed: boolean }
  /** The provider refused the grant: the user has to link again. */
  | { kind: 'relink'; reason: string }
  /** The refresh failed for now (provider down, another process still refreshing). */
  | { kind: 'unavailable'; error: string };

const expiringSoon = (link: StoredLink, now: Date) =>
  link.expiresAt !== null && link.expiresAt.getTime() - now.getTime() <= REFRESH_MARGIN_MS;

/** Tells the user in the in-app inbox that a channel stopped working until linked again. */
async function tellUserToRelink(
  state: NotificationState,
  strategy: RegisteredStrategy,
  userId: string,
) {
  await insertNotifications(state.db, [userId], {
    type: 'notification.oauth_relink',
    title: `Link your ${strategy.displayName} account again`,
    body: `${strategy.displayName} no longer accepts the link you made, so notifications through it are skipped until you link the account again.`,
    importance: 'warning',
    action: { label: 'Link again', url: '/settings/notifications' },
  });
}

async function relink(
  state: NotificationState,
  strategy: RegisteredStrategy,
  key: LinkKey,
): Promise<TokenOutcome> {
  if (await markNeedsRelink(state.db, key)) {
    state.logger.warn(
      { strategyId: key.strategyId, userId: key.userId },
      'an OAuth link was refused by its provider and needs linking again',
    );
    await tellUserToRelink(state, strategy, key.userId);
  }
  return { kind: 'relink', reason: RELINK_REASON };
}

/**
 * The user's tokens on `strategy`, refreshed first when they expire within a minute (or always,
 * with `force`). One refresh at a time per user and strategy across processes: a process takes
 * the refresh by a compare-and-swap on the stored refresh token; the others wait (bounded) for
 * its result instead of asking the provider themselves. A refresh answered `invalid_grant` marks
 * the link as needing a new link and tells the user once.
 */
export async function currentTokens(
  state: NotificationState,
  strategy: RegisteredStrategy,
  config: unknown,
  userId: string,
  options: { force?: boolean; now?: () => Date } = {},
): Promise<TokenOutcome> {
  const now = options.now ?? (() => new Date());
  const key = { userId, strategyId: strategy.qualifiedId };
  const oauth = strategy.oauth;
  const deadline = Date.now() + WAIT_FOR_OTHER_MS;
  let firstGuard: string | null | undefined;
  for (;;) {
    const link = await readLink(state.db, state.keyring, key);
    if (!link) return { kind: 'none' };
    if (link.needsRelink) return { kind: 'relink', reason: RELINK_REASON };
    if (firstGuard === undefined) firstGuard = link.refreshGuard;
    // Refreshed by another process since we looked: its result is ours.
    const refreshedElsewhere = link.refreshGuard !== firstGuard;
    if (refreshedElsewhere || (!options.force && !expiringSoon(link, now()))) {
      return { kind: 'token', link, refreshed: refreshedElsewhere };
    }
    if (!oauth || link.refreshToken === undefined || link.refreshGuard === null) {
      // Nothing to refresh with: usable until it expires, then only a new link helps.
      if (link.expiresAt === null || link.expiresAt > now()) {
        return { kind: 'token', link, refreshed: false };
      }
      return await relink(state, strategy, key);
    }
    if (await claimRefresh(state.db, key, link.refreshGuard, REFRESH_LEASE_MS)) {
      try {
        const tokens = await refreshAtProvider(state.egress, oauth, config, link.refreshToken);
        await storeRefreshed(state.db, state.keyring, key, link.refreshGuard, {
          ...tokens,
          now: now(),
        });
      } catch (error) {
        if (error instanceof OAuthProviderError && error.invalidGrant) {
          return await relink(state, strategy, key);
        }
        await releaseRefresh(state.db, key, link.refreshGuard);
        const message = error instanceof Error ? error.message : 'refresh failed';
        state.logger.warn(
          { strategyId: key.strategyId, userId, problem: message },
          'refreshing an OAuth token failed',
        );
        return { kind: 'unavailable', error: `Refreshing the access token failed: ${message}` };
      }
      const fresh = await readLink(state.db, state.keyring, key);
      return fresh ? { kind: 'token', link: fresh, refreshed: true } : { kind: 'none' };
    }
    if (Date.now() > deadline) {
      return { kind: 'unavailable', error: 'Another process is still refreshing the access token' };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
