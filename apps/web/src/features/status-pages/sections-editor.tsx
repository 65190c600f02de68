import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { itemKey, itemOf, movedUp, type Section } from './page-fields.ts';
import { useCatalogChoices } from './use-catalog-choices.ts';

interface Props {
  sections: Section[];
  issues: Record<string, string>;
  disabled: boolean;
  onChange: (sections: Section[]) => void;
}

/**
 * The page's sections: each a title and the systems and groups it lists, each under the display
 * name visitors see. Picking one adds it under its catalog name, to be changed before saving.
 */
export function SectionsEditor({ sections, issues, disabled, onChange }: Props) {
  const catalog = useCatalogChoices();
  const change = (index: number, section: Section) =>
    onChange(sections.map((current, at) => (at === index ? section : current)));
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        Sections
      </Title>
      <ErrorAlert error={catalog.error} />
      {sections.length === 0 && <Text c="dimmed">No sections yet: add one to list systems.</Text>}
      {sections.map((section, index) => {
        const path = `sections.${index}`;
        const listed = new Set(section.items.map(itemKey));
        return (
          <Paper withBorder p="md" key={index} data-section={index}>
            <Stack gap="sm">
              <Group align="flex-end" wrap="nowrap" gap="xs">
                <TextInput
                  label={`Section ${index + 1} title`}
                  required
                  style={{ flex: 1 }}
                  disabled={disabled}
                  value={section.title}
                  error={issues[`${path}.title`]}
                  onChange={(event) =>
                    change(index, { ...section, title: event.currentTarget.value })
                  }
                />
                <ActionIcon
                  variant="default"
                  size="lg"
                  disabled={disabled || index === 0}
                  aria-label={`Move section ${index + 1} up`}
                  onClick={() => onChange(movedUp(sections, index))}
                >
                  <span aria-hidden="true">↑</span>
                </ActionIcon>
                <Button
                  variant="light"
                  color="red"
                  disabled={disabled}
                  aria-label={`Remove section ${index + 1}`}
                  onClick={() => onChange(sections.filter((_, at) => at !== index))}
                >
                  Remove
                </Button>
              </Group>
              {section.items.map((item, itemIndex) => {
                const key = itemKey(item);
                const catalogName = catalog.nameOf.get(key) ?? 'unknown';
                return (
                  <Group key={key} align="flex-end" wrap="nowrap" gap="xs" data-item={key}>
                    <TextInput
                      style={{ flex: 1 }}
                      label={`Display name of ${item.kind} ${catalogName}`}
                      required
                      disabled={disabled}
                      value={item.displayName}
                      error={issues[`${path}.items.${itemIndex}.displayName`]}
                      onChange={(event) =>
                        change(index, {
                          ...section,
                          items: section.items.map((current, at) =>
                            at === itemIndex
                              ? { ...current, displayName: event.currentTarget.value }
                              : current,
                          ),
                        })
                      }
                    />
                    <ActionIcon
                      variant="default"
                      size="lg"
                      disabled={disabled || itemIndex === 0}
                      aria-label={`Move ${catalogName} up in section ${index + 1}`}
                      onClick={() =>
                        change(index, { ...section, items: movedUp(section.items, itemIndex) })
                      }
                    >
                      <span aria-hidden="true">↑</span>
                    </ActionIcon>
                    <ActionIcon
                      variant="light"
                      color="red"
                      size="lg"
                      disabled={disabled}
                      aria-label={`Remove ${catalogName} from section ${index + 1}`}
                      onClick={() =>
                        change(index, {
                          ...section,
                          items: section.items.filter((_, at) => at !== itemIndex),
                        })
                      }
                    >
                      <span aria-hidden="true">×</span>
                    </ActionIcon>
                  </Group>
                );
              })}
              <Select
                label={`Add to section ${index + 1}`}
                placeholder="Pick a system or group"
                searchable
                disabled={disabled}
                value={null}
                data={catalog.options.map((group) => ({
                  group: group.group,
                  items: group.items.filter((option) => !listed.has(option.value)),
                }))}
                error={issues[`${path}.items`]}
                onChange={(key) => {
                  if (!key) return;
                  const item = itemOf(key, catalog.nameOf.get(key) ?? '');
                  change(index, { ...section, items: [...section.items, item] });
                }}
              />
            </Stack>
          </Paper>
        );
      })}
      <Button
        variant="default"
        w="fit-content"
        disabled={disabled}
        onClick={() => onChange([...sections, { title: '', items: [] }])}
      >
        Add section
      </Button>
      {issues.sections && <Text c="var(--mantine-color-error)">{issues.sections}</Text>}
    </Stack>
  );
}
