import { Button, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { SchemaForm } from '../../ui/schema-form/index.ts';

export interface CheckDraft {
  id?: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  intervalSeconds: number;
  timeoutMs: number;
}

export const emptyDraft: CheckDraft = {
  name: '',
  type: 'healthcheck.http',
  config: {},
  intervalSeconds: 60,
  timeoutMs: 10_000,
};

/** Issues of the config are under `config.`; the form of the config names them without it. */
function configIssues(issues: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(issues)
      .filter(([path]) => path.startsWith('config.'))
      .map(([path, message]) => [path.slice('config.'.length), message]),
  );
}

/** Creates or edits a check; its config is a form made from the type's published schema. */
export function CheckForm({
  systemId,
  initial,
  opened,
  onClose,
  onSaved,
}: {
  systemId: string;
  initial: CheckDraft;
  opened: boolean;
  onClose: () => void;
  onSaved: (heartbeatToken: string | undefined) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const types = useQuery(orpc.healthcheck.getHealthCheckTypes.queryOptions({ input: {} }));
  const type = types.data?.types.find((candidate) => candidate.id === draft.type);
  const editing = initial.id !== undefined;
  const save = useMutation({
    mutationFn: async (value: CheckDraft) => {
      const { id, ...fields } = value;
      return id
        ? api.healthcheck.updateHealthCheck({ id, ...fields })
        : api.healthcheck.createHealthCheck({ systemId, ...fields });
    },
    onSuccess: (saved) => onSaved(saved.heartbeatToken),
  });
  const issues = fieldIssues(save.error);
  const set = (fields: Partial<CheckDraft>) => setDraft((current) => ({ ...current, ...fields }));

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? 'Edit check' : 'New check'}
      centered
      size="lg"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(draft);
        }}
      >
        <Stack>
          {Object.keys(issues).length === 0 && <ErrorAlert error={save.error} />}
          <TextInput
            label="Name"
            required
            data-autofocus
            value={draft.name}
            error={issues.name}
            onChange={(event) => set({ name: event.currentTarget.value })}
          />
          <Select
            label="Type"
            required
            allowDeselect={false}
            data={(types.data?.types ?? []).map((info) => ({
              value: info.id,
              label: info.displayName,
            }))}
            value={draft.type}
            error={issues.type}
            onChange={(value) => value && set({ type: value, config: {} })}
          />
          {type && (
            <Text size="sm" c="dimmed">
              {type.description}
            </Text>
          )}
          <NumberInput
            label="Interval (seconds)"
            min={10}
            value={draft.intervalSeconds}
            error={issues.intervalSeconds}
            onChange={(value) => set({ intervalSeconds: Number(value) })}
          />
          <NumberInput
            label="Timeout (ms)"
            min={100}
            value={draft.timeoutMs}
            error={issues.timeoutMs}
            onChange={(value) => set({ timeoutMs: Number(value) })}
          />
          {type && (
            <SchemaForm
              schema={type.configSchema}
              value={draft.config}
              onChange={(config) => set({ config })}
              issues={configIssues(issues)}
              isConfigured={(path) => editing && path === 'password'}
            />
          )}
          <Button type="submit" loading={save.isPending}>
            {editing ? 'Save' : 'Create'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
