import type { Logger } from '@checkline/core';
import { createEgress, type EgressRequestInit } from '@checkline/net';
import type { Configuration } from 'openid-client';
import { allowInsecureRequests, ClientSecretBasic, customFetch, discovery } from 'openid-client';
import { AuthStrategyError } from '../strategy.ts';
import type { ResolvedOidcSettings } from './settings.ts';

const DISCOVERY_TIMEOUT_SECONDS = 10;

const PROVIDER_UNAVAILABLE = 'The sign-in provider is unavailable, please try again later';

/**
 * The provider's metadata, read once from its discovery document. A failed read is logged and
 * tried again by the next sign-in, so a provider that is down at start-up does not stop the
 * server, and one that comes back is used without a restart.
 */
export class OidcProvider {
  #configuration: Promise<Configuration> | undefined;

  constructor(
    readonly settings: ResolvedOidcSettings,
    private readonly logger: () => Logger,
  ) {}

  /** The provider's configuration; throws {@link AuthStrategyError} while it cannot be read. */
  configuration(): Promise<Configuration> {
    this.#configuration ??= this.#discover().catch((error: unknown) => {
      this.#configuration = undefined;
      this.logger().error(
        { issuer: this.settings.issuer.href, reason: reasonOf(error) },
        `OIDC discovery of ${this.settings.issuer.href} failed; sign-in through ${this.settings.name} is unavailable until it succeeds`,
      );
      throw new AuthStrategyError(PROVIDER_UNAVAILABLE);
    });
    return this.#configuration;
  }

  /** Reads the metadata ahead of the first sign-in; a failure is only logged. */
  async warmUp(): Promise<void> {
    await this.configuration().catch(() => undefined);
  }

  #discover(): Promise<Configuration> {
    const { issuer, clientId, clientSecret, insecureRequests } = this.settings;
    // The issuer is the operator's own choice and may live on a private network; every other
    // host its discovery document names (token, userinfo, keys) must be public, so a document
    // cannot send our client secret or codes to internal or metadata addresses.
    const egress = createEgress({ allow: [issuer.hostname] });
    return discovery(issuer, clientId, undefined, ClientSecretBasic(clientSecret), {
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      // The same fetch serves every later call the configuration makes.
      // Cast: openid-client types a body as any Uint8Array, which the DOM lib of the root
      // typecheck does not take as a fetch body (this package's own program has no DOM lib, so
      // lint there sees the cast as unneeded). The bodies it sends are form strings.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      [customFetch]: (url, options) => egress.fetch(url, options as EgressRequestInit),
      ...(insecureRequests && { execute: [allowInsecureRequests] }),
    });
  }
}

/** An error's message and code, never its stack or the request it carried. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const code = (error as { code?: unknown }).code;
  return `${typeof code === 'string' ? `${code} ` : ''}${error.message}${cause}`.slice(0, 500);
}
