import { isIP } from 'node:net';

/** A login through one OpenID Connect provider (`OIDC_*` in the environment). */
export interface OidcSettings {
  /** The issuer; its `/.well-known/openid-configuration` is read on first use. */
  issuer: string;
  clientId: string;
  /** Sent only to the provider's token endpoint; never logged. */
  clientSecret: string;
  /**
   * The strategy id (its routes are `/api/auth-backend/{name}/...`) and the provider under which
   * identities are recorded, which `auth-provider` contact resolution names. Default `oidc`.
   */
  name?: string | undefined;
  /** The label of the sign-in button. Default `OpenID Connect` (or the name, when given). */
  displayName?: string | undefined;
  /** Default `openid email profile`; `openid` is always asked. */
  scopes?: readonly string[] | undefined;
  /**
   * Allows an `http://` issuer that is not on loopback. Off by default: tokens and codes would
   * cross the network in clear.
   */
  allowInsecureIssuer?: boolean | undefined;
}

export interface ResolvedOidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  name: string;
  displayName: string;
  scopes: string;
  /** Plain http is accepted: on loopback, or by explicit choice. */
  insecureRequests: boolean;
}

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
/** Path segments the auth routes use for themselves. */
const RESERVED_NAMES = new Set(['custom', 'logout']);

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Checks the settings once, at start-up; a problem stops the server with its reason. */
export function resolveOidcSettings(settings: OidcSettings): ResolvedOidcSettings {
  const name = settings.name ?? 'oidc';
  if (!NAME.test(name) || RESERVED_NAMES.has(name)) {
    throw new Error(
      `OIDC name ${JSON.stringify(name)}: lowercase letters, digits and dashes, not custom or logout`,
    );
  }
  const issuer = new URL(settings.issuer);
  const plainHttp = issuer.protocol === 'http:';
  if (!plainHttp && issuer.protocol !== 'https:') {
    throw new Error('OIDC issuer: must be an http(s) URL');
  }
  if (plainHttp && !isLoopbackHost(issuer.hostname) && !settings.allowInsecureIssuer) {
    throw new Error('OIDC issuer: must be https (plain http only on loopback)');
  }
  if (!settings.clientId) throw new Error('OIDC client id: required');
  if (!settings.clientSecret) throw new Error('OIDC client secret: required');
  const scopes = new Set(['openid', ...(settings.scopes ?? ['email', 'profile'])]);
  return {
    issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    name,
    displayName: settings.displayName ?? (settings.name ? name : 'OpenID Connect'),
    scopes: [...scopes].join(' '),
    insecureRequests: plainHttp,
  };
}
