import type { Egress } from '@checkline/net';
import { TargetRefusedError } from '@checkline/net';
import type { StrategyOAuth } from '@checkline/notification-node';

/** A provider call never hangs a request or a delivery longer than this. */
const PROVIDER_TIMEOUT_MS = 10_000;

/** What went wrong at the provider; never carries a token or the client secret. */
export class OAuthProviderError extends Error {
  override name = 'OAuthProviderError';
  constructor(
    message: string,
    /** The OAuth error code the provider answered (`invalid_grant`, ...), if any. */
    readonly code?: string,
    /** HTTP status, when the provider answered. */
    readonly status?: number,
  ) {
    super(message);
  }

  /** The grant is gone for good (revoked, expired): only linking again helps. */
  get invalidGrant(): boolean {
    return this.code === 'invalid_grant';
  }
}

/** The tokens a token endpoint answered, read through the strategy's extractors. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** Seconds. */
  expiresIn: number | undefined;
  scopes: string[];
  /** The endpoint's whole JSON answer (extractExternalId reads it). */
  raw: Record<string, unknown>;
}

type OAuth = StrategyOAuth<unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a token answer with the strategy's extractors, or the seed's defaults. */
function readTokens(oauth: OAuth, raw: Record<string, unknown>): ProviderTokens {
  const accessToken = oauth.extractAccessToken
    ? oauth.extractAccessToken(raw)
    : typeof raw.access_token === 'string'
      ? raw.access_token
      : '';
  if (!accessToken) throw new OAuthProviderError('The token answer holds no access token');
  const refreshToken = oauth.extractRefreshToken
    ? oauth.extractRefreshToken(raw)
    : typeof raw.refresh_token === 'string' && raw.refresh_token
      ? raw.refresh_token
      : undefined;
  const expiresIn = oauth.extractExpiresIn
    ? oauth.extractExpiresIn(raw)
    : typeof raw.expires_in === 'number' && raw.expires_in > 0
      ? raw.expires_in
      : undefined;
  const scopes = oauth.extractScopes
    ? [...oauth.extractScopes(raw)]
    : typeof raw.scope === 'string'
      ? raw.scope.split(/[\s,]+/).filter(Boolean)
      : [...oauth.scopes];
  return { accessToken, refreshToken, expiresIn, scopes, raw };
}

type ProviderEgress = Pick<Egress, 'fetch'>;

/**
 * A form POST to the provider with the client's credentials, through the egress guard: the
 * endpoint comes from an administrator's settings, so it is judged like any other destination.
 */
async function postForm(
  egress: ProviderEgress,
  oauth: OAuth,
  config: unknown,
  url: string,
  form: Record<string, string>,
): Promise<Response> {
  const clientId = oauth.clientId(config);
  const clientSecret = oauth.clientSecret(config);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const body = new URLSearchParams(form);
  if (oauth.clientAuthentication === 'body') {
    body.set('client_id', clientId);
    body.set('client_secret', clientSecret);
  } else {
    // RFC 6749 2.3.1: both parts form-encoded before base64.
    const encode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
  }
  try {
    // Redirects are answered, never followed: a 3xx fails as any other non-2xx answer.
    return await egress.fetch(url, {
      method: 'POST',
      headers,
      body: body.toString(),
      timeoutMs: PROVIDER_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof TargetRefusedError) {
      throw new OAuthProviderError(`The provider at ${new URL(url).host}: ${error.message}`);
    }
    throw new OAuthProviderError(
      `The provider at ${new URL(url).host} cannot be reached: ${error instanceof Error ? error.name : 'error'}`,
    );
  }
}

/** Token endpoint call: the JSON answer, or an {@link OAuthProviderError} with its `error` code. */
async function tokenRequest(
  egress: ProviderEgress,
  oauth: OAuth,
  config: unknown,
  form: Record<string, string>,
): Promise<ProviderTokens> {
  const response = await postForm(egress, oauth, config, oauth.tokenUrl(config), form);
  const body: unknown = await response.json().catch(() => undefined);
  const code = isRecord(body) && typeof body.error === 'string' ? body.error : undefined;
  // Some providers (Slack) answer 200 with `ok: false` and an error code.
  if (!response.ok || code !== undefined || !isRecord(body)) {
    throw new OAuthProviderError(
      `The token endpoint answered ${response.status}${code ? ` (${code})` : ''}`,
      code,
      response.status,
    );
  }
  return readTokens(oauth, body);
}

/** Exchanges an authorization code (with its PKCE verifier). */
export function exchangeCode(
  egress: ProviderEgress,
  oauth: OAuth,
  config: unknown,
  input: { code: string; redirectUri: string; codeVerifier: string },
): Promise<ProviderTokens> {
  return tokenRequest(egress, oauth, config, {
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
}

/** A new access token for a refresh token: the strategy's own refresh, or the standard grant. */
export async function refreshAtProvider(
  egress: ProviderEgress,
  oauth: OAuth,
  config: unknown,
  refreshToken: string,
): Promise<{ accessToken: string; refreshToken?: string; expiresIn?: number; scopes?: string[] }> {
  if (oauth.refreshToken) return await oauth.refreshToken(refreshToken, config);
  return await tokenRequest(egress, oauth, config, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
}

/**
 * Revokes the link at the provider where it offers revocation (the strategy's `revoke`, else
 * RFC 7009 at `revocationUrl`, the refresh token first as it ends the whole grant). Answers
 * whether a revocation was made.
 */
export async function revokeAtProvider(
  egress: ProviderEgress,
  oauth: OAuth,
  config: unknown,
  tokens: { accessToken: string; refreshToken?: string },
): Promise<boolean> {
  if (oauth.revoke) {
    await oauth.revoke(tokens, config);
    return true;
  }
  if (!oauth.revocationUrl) return false;
  const [token, hint] = tokens.refreshToken
    ? [tokens.refreshToken, 'refresh_token']
    : [tokens.accessToken, 'access_token'];
  const response = await postForm(egress, oauth, config, oauth.revocationUrl(config), {
    token,
    token_type_hint: hint,
  });
  await response.body?.cancel();
  if (!response.ok) {
    throw new OAuthProviderError(
      `The revocation endpoint answered ${response.status}`,
      undefined,
      response.status,
    );
  }
  return true;
}
