export { accessRulesExtensionPoint, type AccessRuleRegistrar } from './access-rule-catalog.ts';
export { authAccess, builtInRoles, TEAM_RESOURCE } from './access.ts';
export { actsOnPrincipals, assertMayActOn, type PrincipalRef } from './acting-on-principals.ts';
export { generateApiKey, hashApiKey, parseApiKey } from './api-key.ts';
export type { AuthConfig, RateLimit } from './config.ts';
export { authContract, type AuthContract } from './contract.ts';
export { SESSION_COOKIE } from './cookies.ts';
export { principalDeleted, teamDeleted } from './events.ts';
export { buildErrorUrl, encodeErrorMessage, redirectToError } from './error-redirect.ts';
export { AUTH_PLUGIN_ID, createAuthPlugin, type AuthPlugin } from './plugin.ts';
export { createAuthRouter, type AuthRouter } from './router.ts';
export * from './schemas.ts';
export { credentialStrategy } from './strategies/credentials.ts';
export { isLoopbackHost, type OidcSettings } from './strategies/oidc/settings.ts';
export {
  AuthStrategyError,
  authStrategyExtensionPoint,
  type AuthStrategy,
  type AuthStrategyAction,
  type AuthStrategyContext,
  type AuthStrategyRegistrar,
  type StrategyUser,
} from './strategies/strategy.ts';
export { recordIdentity, type IdentityRecord } from './identities.ts';
export { loadUserProfiles } from './user-profiles.ts';
export { loadApplicationProfiles } from './application-profiles.ts';
