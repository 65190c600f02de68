import { fileURLToPath } from 'node:url';
import { definePlugin } from '@checkline/core';
import { accessRulesExtensionPoint } from './access-rule-catalog.ts';
import { authAccess } from './access.ts';
import { keepAnonymousReadOnly } from './anonymous-role.ts';
import { bootstrap } from './bootstrap.ts';
import type { AuthConfig } from './config.ts';
import { authContract } from './contract.ts';
import { createAuthRouter } from './router.ts';
import { AuthState } from './state.ts';
import { credentialStrategy } from './strategies/credentials.ts';
import { saveLoginState, takeLoginState } from './strategies/oidc/login-states.ts';
import { oidcStrategy } from './strategies/oidc/oidc-strategy.ts';
import { OidcProvider } from './strategies/oidc/provider.ts';
import { AUTH_ROUTE_SEGMENT, authRoutes } from './strategies/routes.ts';
import { authStrategyExtensionPoint } from './strategies/strategy.ts';

export const AUTH_PLUGIN_ID = 'auth';

/**
 * The auth plugin: users, sessions, applications and their keys, roles, teams, strategies and
 * the audit log. Mount it first: it authenticates every request on every surface.
 */
export function createAuthPlugin(config: AuthConfig) {
  const state = new AuthState(config);
  const oidc = state.config.oidc && new OidcProvider(state.config.oidc, () => state.logger);
  let oidcWarmUp: Promise<void> | undefined;
  return definePlugin({
    id: AUTH_PLUGIN_ID,
    dependsOn: [],
    description:
      'Who may call: users and sessions, applications and their API keys, roles and access rules, teams and team access to resources, and the audit log.',
    contract: authContract,
    router: createAuthRouter(state),
    accessRules: Object.values(authAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    routes: authRoutes(state),
    routeSegment: AUTH_ROUTE_SEGMENT,
    register({ pluginId, extensionPoints }) {
      extensionPoints.provide(authStrategyExtensionPoint, pluginId, (caller) => ({
        register: (strategy) => state.strategies.register(caller, strategy),
      }));
      extensionPoints.provide(accessRulesExtensionPoint, pluginId, (caller) => ({
        register(rules) {
          const foreign = rules.find((rule) => !rule.id.startsWith(`${caller}.`));
          if (foreign)
            throw new Error(`Plugin ${caller} declares foreign access rule ${foreign.id}`);
          state.catalog.add(rules);
        },
      }));
      state.strategies.register(pluginId, credentialStrategy);
      if (oidc) {
        state.strategies.register(
          pluginId,
          oidcStrategy(oidc, {
            save: (loginState, login) => saveLoginState(state.db, loginState, login),
            take: (provider, loginState) => takeLoginState(state.db, provider, loginState),
          }),
        );
      }
    },
    async init({ db, logger, listen, databaseKind, metrics }) {
      state.attach(db, logger, metrics);
      if (databaseKind === 'postgres' && !state.config.rateLimitsInProcess)
        state.limits.shareIn(db);
      if (listen) await state.shareInvalidations(listen);
      await bootstrap(db, state.config.admin, logger, state.catalog);
      await keepAnonymousReadOnly(db, state.facts, logger);
    },
    ready() {
      state.strategies.freeze();
      // Not awaited: a provider that is down is logged, and the server starts all the same.
      oidcWarmUp = oidc?.warmUp();
    },
    authentication: () => ({
      resolvePrincipal: (request) => state.authenticator.resolve(request),
      resources: state.teamAccess,
    }),
    async stop() {
      await oidcWarmUp;
      await state.authenticator.settled();
      await state.stopSharingInvalidations();
    },
  });
}

export type AuthPlugin = ReturnType<typeof createAuthPlugin>;
