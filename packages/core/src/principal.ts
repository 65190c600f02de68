export const principalKinds = ['user', 'application', 'service', 'anonymous'] as const;
export type PrincipalKind = (typeof principalKinds)[number];

/** Who is calling, resolved once per request by every surface. */
export interface Principal {
  kind: PrincipalKind;
  /** User or application id; the calling plugin's id for `service`; null for `anonymous`. */
  id: string | null;
  /** Every access rule the caller's roles hold, `{pluginId}.{accessRuleId}`. */
  accessRules: readonly string[];
  teamIds: readonly string[];
  /** Holder of the built-in `admin` role: every rule, and past every team-only restriction. */
  isAdmin: boolean;
}

export function anonymousPrincipal(accessRules: readonly string[] = []): Principal {
  return { kind: 'anonymous', id: null, accessRules, teamIds: [], isAdmin: false };
}

/** A plugin calling another plugin in-process; trusted with every rule. */
export function servicePrincipal(pluginId: string): Principal {
  return { kind: 'service', id: pluginId, accessRules: [], teamIds: [], isAdmin: true };
}
