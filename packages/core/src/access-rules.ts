export interface AccessRule {
  /** `{pluginId}.{accessRuleId}` */
  id: string;
  pluginId: string;
  description: string;
}

/**
 * Declares a plugin's access rules: `defineAccessRules('catalog', { read: ['catalog.read', '...'] })`
 * gives `{ read: { id: 'catalog.catalog.read', ... } }`.
 */
export function defineAccessRules<const T extends Record<string, readonly [string, string]>>(
  pluginId: string,
  rules: T,
): { [K in keyof T]: AccessRule } {
  const result = {} as { [K in keyof T]: AccessRule };
  for (const key of Object.keys(rules) as (keyof T)[]) {
    const [ruleId, description] = rules[key]!;
    result[key] = { id: `${pluginId}.${ruleId}`, pluginId, description };
  }
  return result;
}
