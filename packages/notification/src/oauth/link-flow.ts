import { safeReturnPath } from '@checkline/net';
import type { Principal } from '@checkline/core';
import type { NotificationState } from '../state.ts';
import type { RegisteredStrategy } from '../strategies/registry.ts';
import { mayUseStrategy } from '../strategies/registry.ts';
import { loadStrategySettings } from '../strategies/settings-store.ts';
import { codeChallenge } from './pkce.ts';
import { exchangeCode, OAuthProviderError } from './provider.ts';
import { DEFAULT_RETURN_PATH, linkedUrl } from './return-path.ts';
import { consumeState, createState } from './states.ts';
import { saveLink } from './token-store.ts';

/** The linking routes, relative to the notification plugin's prefix. */
export const OAUTH_ROUTE = '/oauth';
/** Where the linking routes answer. */
export const OAUTH_ROUTE_PREFIX = `/api/notification${OAUTH_ROUTE}`;

/** A failure the user reads on the error page: the message is for them, never internals. */
export class LinkError extends Error {
  override name = 'LinkError';
}

/** The exact callback address registered at the provider. */
const redirectUriOf = (state: NotificationState, strategyId: string) =>
  `${state.baseUrl}${OAUTH_ROUTE_PREFIX}/${encodeURIComponent(strategyId)}/callback`;

/** A registered strategy with `oauth`, or a LinkError. */
export function oauthStrategy(state: NotificationState, strategyId: string) {
  const strategy = state.strategies.get(strategyId);
  if (!strategy?.oauth) throw new LinkError('This channel cannot be linked');
  return strategy as RegisteredStrategy & { oauth: NonNullable<RegisteredStrategy['oauth']> };
}

/** The signed-in user (a session, not an application key), or a LinkError. */
export function signedInUser(principal: Principal | undefined): Principal & { id: string } {
  if (principal?.kind !== 'user' || principal.id === null) {
    throw new LinkError('Please sign in to link an account');
  }
  return principal as Principal & { id: string };
}

/** The strategy's administrator config, when it is enabled and configured. */
async function usableConfig(
  state: NotificationState,
  strategy: RegisteredStrategy,
): Promise<unknown> {
  const settings = (await loadStrategySettings(state, state.db, [strategy.qualifiedId])).get(
    strategy.qualifiedId,
  );
  if (!settings?.enabled || !settings.configured) {
    throw new LinkError('This channel is not set up yet, please ask an administrator');
  }
  return settings.config;
}

/** The provider's consent URL: the strategy's builder or the standard one, then PKCE S256. */
function authorizationUrl(
  strategy: ReturnType<typeof oauthStrategy>,
  config: unknown,
  input: { redirectUri: string; state: string; codeVerifier: string },
): string {
  const { oauth } = strategy;
  const clientId = oauth.clientId(config);
  const built = oauth.buildAuthUrl
    ? oauth.buildAuthUrl({
        clientId,
        redirectUri: input.redirectUri,
        scopes: oauth.scopes,
        state: input.state,
      })
    : undefined;
  const url = new URL(built ?? oauth.authorizationUrl(config));
  if (!built) {
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('scope', oauth.scopes.join(' '));
    url.searchParams.set('state', input.state);
  }
  url.searchParams.set('code_challenge', codeChallenge(input.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/**
 * `GET .../auth`: the user (holding the strategy's `.use` rule) starts linking; answers the
 * provider's consent URL after storing a single-use state with the PKCE verifier.
 */
export async function startLink(
  state: NotificationState,
  input: { strategyId: string; principal: Principal | undefined; returnTo: string | undefined },
): Promise<string> {
  const strategy = oauthStrategy(state, input.strategyId);
  const user = signedInUser(input.principal);
  if (!mayUseStrategy(user, strategy)) {
    throw new LinkError('You are not allowed to use this channel');
  }
  const returnPath = safeReturnPath(input.returnTo, DEFAULT_RETURN_PATH);
  if (returnPath === undefined) throw new LinkError('The return address must be a page of ours');
  const config = await usableConfig(state, strategy);
  const started = await createState(state.db, state.keyring, {
    userId: user.id,
    strategyId: strategy.qualifiedId,
    returnPath,
  });
  const wireState = strategy.oauth.encodeState
    ? `${started.state}.${strategy.oauth.encodeState(user.id, returnPath)}`
    : started.state;
  return authorizationUrl(strategy, config, {
    redirectUri: redirectUriOf(state, strategy.qualifiedId),
    state: wireState,
    codeVerifier: started.codeVerifier,
  });
}

/** What the provider sent back to the callback. */
export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

const EXPIRED = 'This link request is invalid or has expired, please start again';

/**
 * `GET .../callback`: accepts only a stored, unexpired, unused state of the signed-in user,
 * exchanges the code, stores the tokens and the external id; answers where to send the user.
 */
export async function finishLink(
  state: NotificationState,
  input: { strategyId: string; principal: Principal | undefined; query: CallbackQuery },
): Promise<string> {
  const strategy = oauthStrategy(state, input.strategyId);
  const user = signedInUser(input.principal);
  const { query } = input;
  if (!query.state) throw new LinkError(EXPIRED);
  const [platformState = '', strategyState] = splitState(query.state);
  const consumed = await consumeState(state.db, state.keyring, {
    state: platformState,
    userId: user.id,
    strategyId: strategy.qualifiedId,
  });
  if (!consumed) throw new LinkError(EXPIRED);
  if (query.error !== undefined) {
    throw new LinkError(
      query.error === 'access_denied'
        ? 'You declined to link the account'
        : 'The provider did not link the account, please try again',
    );
  }
  if (strategy.oauth.decodeState) {
    const decoded = strategyState === undefined ? undefined : safeDecode(strategy, strategyState);
    if (decoded?.userId !== user.id || decoded.returnUrl !== consumed.returnPath) {
      throw new LinkError(EXPIRED);
    }
  }
  if (!query.code) throw new LinkError('The provider did not link the account, please try again');
  const config = await usableConfig(state, strategy);
  let externalId: string;
  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    tokens = await exchangeCode(state.egress, strategy.oauth, config, {
      code: query.code,
      redirectUri: redirectUriOf(state, strategy.qualifiedId),
      codeVerifier: consumed.codeVerifier,
    });
    externalId = strategy.oauth.extractExternalId(tokens.raw);
  } catch (error) {
    state.logger.warn(
      {
        strategyId: strategy.qualifiedId,
        userId: user.id,
        problem: error instanceof OAuthProviderError ? error.message : 'unreadable token answer',
      },
      'linking an account failed at the token exchange',
    );
    throw new LinkError('The provider did not link the account, please try again');
  }
  if (typeof externalId !== 'string' || externalId === '') {
    throw new LinkError('The provider did not say which account was linked');
  }
  await state.db.transaction((tx) =>
    saveLink(tx, state.keyring, {
      userId: user.id,
      strategyId: strategy.qualifiedId,
      externalId,
      tokens,
    }),
  );
  state.logger.info({ strategyId: strategy.qualifiedId, userId: user.id }, 'account linked');
  return linkedUrl(state.frontendUrl, consumed.returnPath, strategy.qualifiedId);
}

/** `{platform}.{strategy's own}`: the platform's part never holds a dot (base64url). */
function splitState(wire: string): [string, string | undefined] {
  const dot = wire.indexOf('.');
  return dot === -1 ? [wire, undefined] : [wire.slice(0, dot), wire.slice(dot + 1)];
}

function safeDecode(strategy: ReturnType<typeof oauthStrategy>, encoded: string) {
  try {
    return strategy.oauth.decodeState!(encoded);
  } catch {
    return undefined;
  }
}
