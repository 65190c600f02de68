import { Button, Group, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { localIssues, SchemaForm, type JsonSchema } from '../../ui/schema-form/index.ts';

/**
 * A config layer's form: the stored values (the server leaves secrets out and says which are
 * set), the schema's fields, and Save. What is sent is what the form holds: a secret not typed
 * stays as stored, a cleared one is `null`. A colour the server would refuse stops the save here.
 */
export function ConfigForm({
  schema,
  stored,
  secrets,
  saveLabel = 'Save',
  pending,
  error,
  issuePrefix,
  onSave,
}: {
  schema: JsonSchema;
  stored: Record<string, unknown> | null;
  secrets: Record<string, boolean>;
  saveLabel?: string;
  pending: boolean;
  error: unknown;
  /** The input field the server names issues under (`config.`), removed to match the form's paths. */
  issuePrefix: string;
  onSave: (value: Record<string, unknown>) => void;
}) {
  const [value, setValue] = useState<Record<string, unknown>>(stored ?? {});
  const [tried, setTried] = useState(false);
  const serverIssues = Object.fromEntries(
    Object.entries(fieldIssues(error)).map(([path, message]) => [
      path.startsWith(`${issuePrefix}.`) ? path.slice(issuePrefix.length + 1) : path,
      message,
    ]),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(localIssues(schema, value)).length > 0) return;
    onSave(value);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SchemaForm
          schema={schema}
          value={value}
          onChange={setValue}
          issues={serverIssues}
          isConfigured={(path) => secrets[path] === true}
        />
        {tried && Object.keys(localIssues(schema, value)).length > 0 && (
          <ErrorAlert title="Not saved" error={new Error('Correct the marked fields first.')} />
        )}
        <ErrorAlert title="Not saved" error={error} />
        <Group>
          <Button type="submit" loading={pending}>
            {saveLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
