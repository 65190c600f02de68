import { Button, Group, Select, Stack, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { statusOptions } from './incident-options.ts';

type Status = 'investigating' | 'identified' | 'monitoring' | 'resolved';

/** Adds a timeline entry: a message, a new status, or both; resolving and reopening included. */
export function IncidentUpdateForm({ id, status }: { id: string; status: Status }) {
  const queryClient = useQueryClient();
  const [nextStatus, setNextStatus] = useState<Status>(status);
  const [message, setMessage] = useState('');
  const update = useMutation({
    mutationFn: (input: { status?: Status; message?: string }) =>
      api.incident.updateIncident({ id, ...input }),
    onSuccess: async (incident) => {
      setMessage('');
      setNextStatus(incident.status);
      await queryClient.invalidateQueries();
    },
  });
  const issues = fieldIssues(update.error);
  const trimmed = message.trim();
  return (
    <form
      aria-label="Post an update"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({
          ...(nextStatus !== status && { status: nextStatus }),
          ...(trimmed && { message: trimmed }),
        });
      }}
    >
      <Stack>
        {Object.keys(issues).length === 0 && <ErrorAlert error={update.error} />}
        <Select
          label="Status"
          allowDeselect={false}
          data={statusOptions}
          value={nextStatus}
          onChange={(value) => value && setNextStatus(value as Status)}
        />
        <Textarea
          label="Update message"
          value={message}
          error={issues.message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Group>
          <Button
            type="submit"
            loading={update.isPending}
            disabled={nextStatus === status && trimmed === ''}
          >
            Post update
          </Button>
          {status === 'resolved' ? (
            <Button variant="default" onClick={() => update.mutate({ status: 'investigating' })}>
              Reopen
            </Button>
          ) : (
            <Button variant="default" onClick={() => update.mutate({ status: 'resolved' })}>
              Resolve
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
