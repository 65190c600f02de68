import { safeReturnPath } from '@checkline/net';
import type { Configuration } from 'openid-client';
import * as client from 'openid-client';
import { ROUTE_PREFIX } from '../routes.ts';
import type { AuthStrategy, AuthStrategyContext } from '../strategy.ts';
import { AuthStrategyError } from '../strategy.ts';
import type { ProviderProfile } from './account.ts';
import { profileOf, userForProfile } from './account.ts';
import type { LoginState } from './login-states.ts';
import type { OidcProvider } from './provider.ts';
import { reasonOf } from './provider.ts';
import type { StateCookie } from './state-cookie.ts';
import { browserStarted, clearStateCookie, setStateCookie } from './state-cookie.ts';
import { oidcOperations } from './openapi.ts';

/** Where started sign-ins are kept between the redirect and the callback. */
export interface LoginStateStore {
  save(state: string, login: LoginState): Promise<void>;
  take(provider: string, state: string): Promise<LoginState | undefined>;
}

const STALE_STATE = 'The sign-in expired or was already used, please try again';
const NOT_VERIFIED = 'The sign-in could not be verified, please try again';

/** The provider's `error` as the person should read it. */
const providerRefusal = (error: string) =>
  error === 'access_denied'
    ? 'The sign-in was cancelled'
    : 'The sign-in provider refused the sign-in';

/**
 * Sign-in with an OpenID Connect provider: `GET .../login?returnTo=/path` sends the browser to
 * the provider (authorization code with PKCE S256, state and nonce), `GET .../callback` takes
 * the code back, checks the ID token, signs the matching user in and sends the browser to the
 * return path on the frontend. Every failure ends on the error page.
 */
export function oidcStrategy(provider: OidcProvider, loginStates: LoginStateStore): AuthStrategy {
  const { name, displayName, scopes } = provider.settings;
  /** The exact callback URL the provider is told, and the cookie that only it receives. */
  const addresses = (context: AuthStrategyContext) => {
    const base = `${context.baseUrl}${ROUTE_PREFIX}/${name}`;
    const cookie: StateCookie = {
      name: `checkline_login_${name.replaceAll('-', '_')}`,
      path: `${new URL(context.baseUrl).pathname.replace(/\/$/, '')}${ROUTE_PREFIX}/${name}/callback`,
      secure: context.secureCookies,
    };
    return { redirectUri: `${base}/callback`, cookie };
  };

  async function login(context: AuthStrategyContext): Promise<Response> {
    const returnTo = safeReturnPath(new URL(context.request.url).searchParams.get('returnTo'));
    if (returnTo === undefined) return context.fail('Invalid return path');
    const configuration = await provider.configuration();
    const { redirectUri, cookie } = addresses(context);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    await loginStates.save(state, { provider: name, codeVerifier, nonce, returnTo });
    const location = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: scopes,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return new Response(null, {
      status: 302,
      headers: {
        location: location.href,
        'set-cookie': setStateCookie(cookie, state),
        'cache-control': 'no-store',
      },
    });
  }

  async function callback(context: AuthStrategyContext): Promise<Response> {
    const { redirectUri, cookie } = addresses(context);
    const cleared = { 'set-cookie': clearStateCookie(cookie) };
    try {
      const response = await finishSignIn(context, redirectUri, cookie);
      response.headers.append('set-cookie', cleared['set-cookie']);
      return response;
    } catch (error) {
      if (error instanceof AuthStrategyError) {
        throw new AuthStrategyError(error.message, { ...error.headers, ...cleared });
      }
      throw error;
    }
  }

  async function finishSignIn(
    context: AuthStrategyContext,
    redirectUri: string,
    cookie: StateCookie,
  ): Promise<Response> {
    const query = new URL(context.request.url).searchParams;
    const state = query.get('state') ?? '';
    // Taken before anything else is checked: whatever happens next, this state is spent.
    const login = state ? await loginStates.take(name, state) : undefined;
    if (!login || !browserStarted(context.request, cookie, state)) {
      await context.recordFailure();
      throw new AuthStrategyError(STALE_STATE);
    }
    const refusal = query.get('error');
    if (refusal !== null) throw new AuthStrategyError(providerRefusal(refusal));
    const configuration = await provider.configuration();
    const profile = await verifiedProfile(context, configuration, redirectUri, query, state, login);
    const user = await userForProfile(context, name, profile);
    return context.signIn(user.id, { redirectTo: login.returnTo });
  }

  async function verifiedProfile(
    context: AuthStrategyContext,
    configuration: Configuration,
    redirectUri: string,
    query: URLSearchParams,
    state: string,
    login: LoginState,
  ): Promise<ProviderProfile> {
    try {
      // The callback as the provider was told it: our public address, whatever proxy is between.
      const current = new URL(`${redirectUri}?${query.toString()}`);
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: login.codeVerifier,
        expectedNonce: login.nonce,
        expectedState: state,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      if (typeof claims.email === 'string') return profileOf(claims);
      // Some providers keep the e-mail out of the ID token; userinfo has it for the same subject.
      const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      return profileOf({ ...userInfo, sub: claims.sub });
    } catch (error) {
      context.logger.warn({ provider: name, reason: reasonOf(error) }, 'OIDC sign-in refused');
      throw new AuthStrategyError(NOT_VERIFIED);
    }
  }

  const operations = oidcOperations(displayName);
  return {
    id: name,
    displayName,
    start: 'login',
    actions: {
      login: { method: 'GET', handle: login, openapi: operations.login },
      callback: { method: 'GET', handle: callback, openapi: operations.callback },
    },
  };
}
