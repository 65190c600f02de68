import { Fieldset, Stack } from '@mantine/core';
import { SchemaField } from './schema-field.tsx';
import type { JsonSchema } from './json-schema.ts';
import { localIssues } from './json-schema.ts';

export interface SchemaFormProps {
  /** An object schema as the server publishes it (strategy config, userConfig, layout...). */
  schema: JsonSchema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  /** Field errors by dotted path, as the server's `issues` name them. */
  issues?: Record<string, string>;
  /** Whether the server says the secret at this dotted path is set (it never sends the value). */
  isConfigured?: (path: string) => boolean;
  /** Dotted path of this object inside the whole form (nested objects). */
  path?: string;
}

/**
 * One renderer for every JSON Schema the server publishes: a field per property, help text from
 * `description`, required marks, `x-secret` as a password input that is never prefilled (a
 * secret the person clears is sent as `null`), `x-color` as a colour input that refuses what the
 * server refuses, and the server's field errors beside their fields.
 */
export function SchemaForm({
  schema,
  value,
  onChange,
  issues = {},
  isConfigured = () => false,
  path = '',
}: SchemaFormProps) {
  const required = new Set(schema.required ?? []);
  const problems = { ...localIssues(schema, value, path), ...issues };
  return (
    <Stack gap="sm">
      {Object.entries(schema.properties ?? {}).map(([key, field]) => {
        const fieldPath = path ? `${path}.${key}` : key;
        const set = (next: unknown) => {
          const copy = { ...value };
          if (next === undefined) delete copy[key];
          else copy[key] = next;
          onChange(copy);
        };
        return (
          <SchemaField
            key={key}
            name={key}
            path={fieldPath}
            schema={field}
            required={required.has(key)}
            value={value[key]}
            onChange={set}
            error={problems[fieldPath]}
            configured={isConfigured(fieldPath)}
            renderObject={(objectSchema, objectValue, onObjectChange) => (
              <Fieldset legend={field.title ?? key}>
                <SchemaForm
                  schema={objectSchema}
                  value={objectValue}
                  onChange={onObjectChange}
                  issues={issues}
                  isConfigured={isConfigured}
                  path={fieldPath}
                />
              </Fieldset>
            )}
          />
        );
      })}
    </Stack>
  );
}
