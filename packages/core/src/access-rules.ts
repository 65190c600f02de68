export interface AccessRule {
  /** `{pluginId}.{accessRuleId}` */
  id: string;
  pluginId: string;
  description: string;
  /**
   * A rule every subscriber to alerts needs (a read the alerts are about, a channel's use): the
   * built-in `subscriber` role is created holding each such rule.
   */
  subscriber?: true;
}

/** What marks a rule beyond its id and description. */
interface AccessRuleMarks {
  subscriber?: true;
}

type AccessRuleDeclaration = readonly [string, string] | readonly [string, string, AccessRuleMarks];

/**
 * Declares a plugin's access rules: `defineAccessRules('catalog', { read: ['catalog.read', '...'] })`
 * gives `{ read: { id: 'catalog.catalog.read', ... } }`; a third element `{ subscriber: true }`
 * puts the rule in the built-in `subscriber` role.
 */
export function defineAccessRules<const T extends Record<string, AccessRuleDeclaration>>(
  pluginId: string,
  rules: T,
): { [K in keyof T]: AccessRule } {
  const result = {} as { [K in keyof T]: AccessRule };
  for (const key of Object.keys(rules) as (keyof T)[]) {
    const [ruleId, description, marks] = rules[key]!;
    result[key] = {
      id: `${pluginId}.${ruleId}`,
      pluginId,
      description,
      ...(marks?.subscriber && { subscriber: true }),
    };
  }
  return result;
}
