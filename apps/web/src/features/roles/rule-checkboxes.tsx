import { Checkbox, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { groupRulesByPlugin, type AccessRule } from './group-rules.ts';

/** One checkbox per access rule, in a group per plugin, each with the rule's description. */
export function RuleCheckboxes({
  rules,
  selected,
  disabled,
  onChange,
}: {
  rules: readonly AccessRule[];
  selected: ReadonlySet<string>;
  disabled?: boolean;
  onChange: (next: Set<string>) => void;
}) {
  const toggle = (ruleId: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(ruleId);
    else next.delete(ruleId);
    onChange(next);
  };
  return (
    <Stack gap="md">
      {groupRulesByPlugin(rules).map(([pluginId, group]) => (
        <Fieldset key={pluginId} legend={pluginId} variant="filled">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {group.map((rule) => (
              <Checkbox
                key={rule.id}
                label={rule.id}
                description={rule.description}
                checked={selected.has(rule.id)}
                disabled={disabled}
                onChange={(event) => toggle(rule.id, event.currentTarget.checked)}
              />
            ))}
          </SimpleGrid>
        </Fieldset>
      ))}
    </Stack>
  );
}
