import { Anchor, Button, Group, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { api, orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';
import { WindowForm } from './window-form.tsx';
import { windowPhase } from './window-phase.ts';
import { Loading } from '../../ui/loading.tsx';
import { LightBadge } from '../../ui/light-badge.tsx';

/** The maintenance API has no lookup by id, so the window is found among those listed. */
async function findWindow(id: string) {
  let cursor: string | undefined;
  do {
    const page = await api.maintenance.getWindows({ includePast: true, limit: 1000, cursor });
    const found = page.windows.find((window) => window.id === id);
    if (found) return found;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return null;
}

export function WindowPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const [editing, setEditing] = useState(false);
  const window = useQuery({ queryKey: ['maintenance-window', id], queryFn: () => findWindow(id) });
  const systemIds = window.data?.systemIds ?? [];
  const systems = useQuery({
    ...orpc.catalog.getSystems.queryOptions({ input: { ids: systemIds, limit: 100 } }),
    enabled: systemIds.length > 0,
  });
  const remove = useMutation({
    mutationFn: () => api.maintenance.deleteWindow({ id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await navigate('/maintenance');
    },
  });
  if (window.error) return <ErrorAlert error={window.error} />;
  if (window.isPending) return <Loading label="Loading window" />;
  if (!window.data) {
    return (
      <Page title="Window not found">
        <Text>There is no maintenance window with this address that you may see.</Text>
      </Page>
    );
  }
  const data = window.data;
  return (
    <Page
      title={data.title}
      actions={
        <Group gap="xs">
          {mayCall(me.data, contracts.maintenance.updateWindow) && (
            <Button variant="default" onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          {mayCall(me.data, contracts.maintenance.deleteWindow) && (
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          )}
        </Group>
      }
    >
      <Group gap="xs">
        <LightBadge>{windowPhase(data, new Date())}</LightBadge>
        <Text>
          {formatTime(data.startAt)} – {formatTime(data.endAt)}
        </Text>
      </Group>
      {data.description && <Text>{data.description}</Text>}
      <Group gap="xs">
        <Text>Systems:</Text>
        {systems.data?.systems.map((system) => (
          <Anchor key={system.id} component={Link} to={`/systems/${system.id}`}>
            {system.name}
          </Anchor>
        ))}
      </Group>
      <ErrorAlert error={remove.error} />
      {editing && (
        <WindowForm
          title="Edit the maintenance window"
          submitLabel="Save"
          initial={data}
          onClose={() => setEditing(false)}
          save={(fields) => api.maintenance.updateWindow({ id, ...fields })}
        />
      )}
      <ConfirmDialog
        opened={deleting}
        title="Delete window"
        confirmLabel="Delete"
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate()}
      >
        Delete the maintenance window “{data.title}”?
      </ConfirmDialog>
    </Page>
  );
}
