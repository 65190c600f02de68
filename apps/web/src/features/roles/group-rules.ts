export interface AccessRule {
  id: string;
  pluginId: string;
  description: string;
}

/** Rules by the plugin that owns them, plugins and rules in name order. */
export function groupRulesByPlugin(rules: readonly AccessRule[]): [string, AccessRule[]][] {
  const groups = new Map<string, AccessRule[]>();
  for (const rule of rules) {
    const group = groups.get(rule.pluginId) ?? [];
    group.push(rule);
    groups.set(rule.pluginId, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([pluginId, group]) => [pluginId, group.sort((a, b) => a.id.localeCompare(b.id))]);
}
