import type { Principal } from '@checkline/core';
import type { NotificationState } from '../state.ts';
import { loadStrategySettings } from '../strategies/settings-store.ts';
import { oauthStrategy, signedInUser } from './link-flow.ts';
import { revokeAtProvider } from './provider.ts';
import { currentTokens } from './refresh.ts';
import { readLink, removeLink } from './token-store.ts';

/** A JSON answer of refresh or unlink: the status and body (errors as the API's error shape). */
export type ActionAnswer =
  | { status: 200; body: Record<string, unknown> }
  | { status: 401 | 403 | 404 | 409 | 503; code: string; message: string };

const failure = (
  status: 401 | 403 | 404 | 409 | 503,
  code: string,
  message: string,
): ActionAnswer => ({ status, code, message });

/** The linking strategy and signed-in user an action is for, or the answer refusing it. */
function caller(
  state: NotificationState,
  strategyId: string,
  principal: Principal | undefined,
):
  | { strategy: ReturnType<typeof oauthStrategy>; user: ReturnType<typeof signedInUser> }
  | { refused: ActionAnswer } {
  if (!state.strategies.get(strategyId)?.oauth) {
    return { refused: failure(404, 'NOT_FOUND', 'No such channel with account linking') };
  }
  try {
    return { strategy: oauthStrategy(state, strategyId), user: signedInUser(principal) };
  } catch {
    return { refused: failure(401, 'UNAUTHORIZED', 'A signed-in user is required') };
  }
}

/** The administrator's settings of the strategy, as stored. */
async function settingsOf(state: NotificationState, qualifiedId: string) {
  return (await loadStrategySettings(state, state.db, [qualifiedId])).get(qualifiedId);
}

/** `POST .../refresh`: renews the caller's tokens now. */
export async function refreshLink(
  state: NotificationState,
  strategyId: string,
  principal: Principal | undefined,
): Promise<ActionAnswer> {
  const found = caller(state, strategyId, principal);
  if ('refused' in found) return found.refused;
  const { strategy, user } = found;
  const settings = await settingsOf(state, strategy.qualifiedId);
  if (!settings?.configured) {
    return failure(409, 'CONFLICT', 'The channel is not configured by an administrator');
  }
  const outcome = await currentTokens(state, strategy, settings.config, user.id, { force: true });
  switch (outcome.kind) {
    case 'none':
      return failure(404, 'NOT_FOUND', 'No linked account on this channel');
    case 'relink':
      return failure(409, 'CONFLICT', outcome.reason);
    case 'unavailable':
      return failure(
        503,
        'SERVICE_UNAVAILABLE',
        'The provider could not renew access, try again later',
      );
    case 'token':
      return {
        status: 200,
        body: {
          strategyId: strategy.qualifiedId,
          refreshed: outcome.refreshed,
          expiresAt: outcome.link.expiresAt?.toISOString() ?? null,
          scopes: outcome.link.scopes,
        },
      };
  }
}

/**
 * `DELETE .../unlink`: revokes the grant at the provider where it offers revocation, then removes
 * the tokens and the external id. A revocation that fails is logged; the link is removed anyway,
 * as the user asked.
 */
export async function unlinkAccount(
  state: NotificationState,
  strategyId: string,
  principal: Principal | undefined,
): Promise<ActionAnswer> {
  const found = caller(state, strategyId, principal);
  if ('refused' in found) return found.refused;
  const { strategy, user } = found;
  const key = { userId: user.id, strategyId: strategy.qualifiedId };
  const link = await readLink(state.db, state.keyring, key);
  let revoked = false;
  if (link) {
    const settings = await settingsOf(state, strategy.qualifiedId);
    try {
      revoked =
        settings?.configured === true &&
        (await revokeAtProvider(state.egress, strategy.oauth, settings.config, link));
    } catch (error) {
      state.logger.warn(
        {
          strategyId: strategy.qualifiedId,
          userId: user.id,
          problem: error instanceof Error ? error.message : 'revocation failed',
        },
        'revoking an OAuth grant failed; the link is removed all the same',
      );
    }
  }
  const removed = await state.db.transaction((tx) => removeLink(tx, key));
  if (!removed) return failure(404, 'NOT_FOUND', 'No linked account on this channel');
  state.logger.info(
    { strategyId: strategy.qualifiedId, userId: user.id, revoked },
    'account unlinked',
  );
  return { status: 200, body: { strategyId: strategy.qualifiedId, unlinked: true, revoked } };
}
