import { Button, Modal, MultiSelect, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { severityOptions } from './incident-options.ts';

type Severity = 'minor' | 'major' | 'critical';

export function CreateIncident() {
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<Severity>('major');
  const [description, setDescription] = useState('');
  const [systemIds, setSystemIds] = useState<string[]>([]);
  const systems = useQuery({
    ...orpc.catalog.getSystems.queryOptions({ input: { limit: 1000 } }),
    enabled: opened,
  });
  const create = useMutation({
    mutationFn: () => api.incident.createIncident({ title, severity, description, systemIds }),
    onSuccess: (incident) => navigate(`/incidents/${incident.id}`),
  });
  const issues = fieldIssues(create.error);
  return (
    <>
      <Button onClick={() => setOpened(true)}>New incident</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="New incident" centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <Stack>
            {Object.keys(issues).length === 0 && <ErrorAlert error={create.error} />}
            <TextInput
              label="Title"
              required
              data-autofocus
              value={title}
              error={issues.title}
              onChange={(event) => setTitle(event.currentTarget.value)}
            />
            <Select
              label="Severity"
              allowDeselect={false}
              data={severityOptions}
              value={severity}
              onChange={(value) => value && setSeverity(value as Severity)}
            />
            <Textarea
              label="Description"
              value={description}
              error={issues.description}
              onChange={(event) => setDescription(event.currentTarget.value)}
            />
            <MultiSelect
              label="Affected systems"
              searchable
              data={(systems.data?.systems ?? []).map((system) => ({
                value: system.id,
                label: system.name,
              }))}
              value={systemIds}
              error={issues.systemIds}
              onChange={setSystemIds}
            />
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
