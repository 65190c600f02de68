import type { AccessRule } from '@checkline/core/contract';
import { QualifiedRegistry } from '@checkline/core';
import type { NotificationStrategy } from '@checkline/notification-node';
import { assertMigrationChain } from '@checkline/notification-node';
import { contactFieldProblem } from './contact-field.ts';

export type RegisteredStrategy = NotificationStrategy & {
  /** `{ownerPluginId}.{id}` */
  qualifiedId: string;
  ownerPluginId: string;
};

/** The access rule a user needs to receive notifications through a strategy. */
export function strategyUseRule(ownerPluginId: string, id: string): AccessRule {
  return {
    id: `${ownerPluginId}.strategy.${id}.use`,
    pluginId: ownerPluginId,
    description: `Receive notifications through the ${ownerPluginId}.${id} channel`,
    subscriber: true,
  };
}

/** The id of a registered strategy's `.use` rule. */
export const useRuleOf = (strategy: RegisteredStrategy): string =>
  strategyUseRule(strategy.ownerPluginId, strategy.id).id;

/**
 * Whether `holder` (a principal, or a user profile from the auth plugin) may receive through
 * `strategy`: it holds the strategy's `.use` rule, or is an admin, who holds every rule.
 */
export function mayUseStrategy(
  holder: { isAdmin: boolean; accessRules: readonly string[] },
  strategy: RegisteredStrategy,
): boolean {
  return holder.isAdmin || holder.accessRules.includes(useRuleOf(strategy));
}

function assertContactResolution(label: string, strategy: NotificationStrategy): void {
  const resolution = strategy.contactResolution;
  const refuse = (reason: string) => {
    throw new Error(`${label}: contactResolution ${resolution.type} ${reason}`);
  };
  switch (resolution.type) {
    case 'auth-email':
      return;
    case 'auth-provider':
      if (!resolution.provider) refuse('needs the provider to ask');
      return;
    case 'user-config': {
      if (!strategy.userConfig) return refuse('needs a userConfig');
      if (!resolution.field) return refuse('needs the field of userConfig that holds the contact');
      const problem = contactFieldProblem(strategy.userConfig.schema, resolution.field);
      if (problem) refuse(problem);
      return;
    }
    case 'oauth-link':
      if (!strategy.oauth) refuse('needs an oauth definition');
      return;
    case 'custom':
      if (typeof resolution.resolve !== 'function') refuse('needs a resolve function');
      return;
    default:
      throw new Error(
        `${label}: unknown contactResolution type ${(resolution as { type: unknown }).type}`,
      );
  }
}

const requiredOAuthFunctions = [
  'clientId',
  'clientSecret',
  'authorizationUrl',
  'tokenUrl',
  'extractExternalId',
] as const;

const optionalOAuthFunctions = [
  'extractAccessToken',
  'extractRefreshToken',
  'extractExpiresIn',
  'extractScopes',
  'encodeState',
  'decodeState',
  'buildAuthUrl',
  'refreshToken',
  'revocationUrl',
  'revoke',
] as const;

/** An `oauth` definition the linking routes can run: a mistake shows at start-up, not mid-flow. */
function assertOAuth(label: string, oauth: NotificationStrategy['oauth']): void {
  if (oauth === undefined) return;
  const refuse = (reason: string) => {
    throw new Error(`${label}: oauth ${reason}`);
  };
  for (const name of requiredOAuthFunctions) {
    if (typeof oauth[name] !== 'function') refuse(`${name} is not a function`);
  }
  for (const name of optionalOAuthFunctions) {
    if (oauth[name] !== undefined && typeof oauth[name] !== 'function') {
      refuse(`${name} is not a function`);
    }
  }
  if (!Array.isArray(oauth.scopes)) refuse('scopes is not an array');
  if ((oauth.encodeState === undefined) !== (oauth.decodeState === undefined)) {
    refuse('encodeState and decodeState come together');
  }
  const auth = oauth.clientAuthentication;
  if (auth !== undefined && auth !== 'basic' && auth !== 'body') {
    refuse(`clientAuthentication ${String(auth)} is neither basic nor body`);
  }
}

/** Every strategy the plugins registered, by qualified id; closed once start-up is done. */
export class NotificationStrategyRegistry {
  readonly #registry = new QualifiedRegistry<NotificationStrategy>('notification strategies');

  /** Throws on a malformed definition, a broken migration chain, a duplicate or once frozen. */
  register(ownerPluginId: string, strategy: NotificationStrategy): RegisteredStrategy {
    const qualifiedId = `${ownerPluginId}.${strategy.id}`;
    const label = `notification strategy ${qualifiedId}`;
    const existing = this.#registry.get(qualifiedId);
    if (existing) {
      throw new Error(
        `${label} is registered twice: first by plugin ${existing.ownerPluginId}, again by plugin ${ownerPluginId}`,
      );
    }
    if (!strategy.displayName) throw new Error(`${label}: displayName is empty`);
    if (typeof strategy.send !== 'function') throw new Error(`${label}: send is not a function`);
    for (const layer of ['config', 'userConfig', 'layoutConfig'] as const) {
      const versioned = strategy[layer];
      if (versioned) assertMigrationChain(`${label} ${layer}`, versioned);
    }
    assertContactResolution(label, strategy);
    if (strategy.reachesApplications && !strategy.userConfig) {
      throw new Error(
        `${label}: reachesApplications needs a userConfig (where applications are reached)`,
      );
    }
    assertOAuth(label, strategy.oauth);
    return this.#registry.register(ownerPluginId, strategy);
  }

  get(qualifiedId: string): RegisteredStrategy | undefined {
    return this.#registry.get(qualifiedId);
  }

  list(): RegisteredStrategy[] {
    return this.#registry.list();
  }

  /** One `{ownerPluginId}.strategy.{id}.use` rule per strategy, for the access-rule catalog. */
  accessRules(): AccessRule[] {
    return this.list().map((entry) => strategyUseRule(entry.ownerPluginId, entry.id));
  }

  /** From now on every registration throws. */
  freeze(): void {
    this.#registry.freeze();
  }
}
