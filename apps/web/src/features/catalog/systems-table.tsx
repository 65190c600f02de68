import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, orpc } from '../../api/client.ts';
import { ConfirmDelete } from '../../ui/confirm-delete.tsx';
import { ListSection } from '../../ui/list-section.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { SystemAccess } from './system-access.tsx';
import { emptySystem, SystemForm } from './system-form.tsx';

interface SystemRow {
  id: string;
  name: string;
  description: string;
  owner: string | null;
  tags: string[];
}

type Dialog = { kind: 'create' } | { kind: 'edit' | 'delete' | 'access'; system: SystemRow } | null;

/** Every system (the first 1000 by name): create, edit, delete, and who may reach it. */
export function SystemsTable({ mayGrant }: { mayGrant: boolean }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const systems = useQuery(orpc.catalog.getSystems.queryOptions({ input: { limit: 1000 } }));
  const rows = systems.data?.systems ?? [];
  return (
    <>
      <ListSection
        id="catalog-systems"
        title="Systems"
        action={<Button onClick={() => setDialog({ kind: 'create' })}>New system</Button>}
        error={systems.error}
        isEmpty={systems.isSuccess && rows.length === 0}
        empty="No systems yet."
      >
        {systems.data?.nextCursor && (
          <Text c="dimmed">Showing the first 1000 systems by name.</Text>
        )}
        <DataTable
          minWidth={600}
          verticalSpacing="xs"
          aria-labelledby="catalog-systems"
          columns={['Name', 'Owner', 'Tags', 'Actions']}
        >
          {rows.map((system) => (
            <Table.Tr key={system.id} data-system={system.name}>
              <Table.Td>
                <Anchor component={Link} to={`/systems/${system.id}`}>
                  {system.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{system.owner ?? '—'}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {system.tags.map((tag) => (
                    <Badge key={tag} variant="default">
                      {tag}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Edit ${system.name}`}
                    onClick={() => setDialog({ kind: 'edit', system })}
                  >
                    Edit
                  </Button>
                  {mayGrant && (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Access to ${system.name}`}
                      onClick={() => setDialog({ kind: 'access', system })}
                    >
                      Access
                    </Button>
                  )}
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    aria-label={`Delete ${system.name}`}
                    onClick={() => setDialog({ kind: 'delete', system })}
                  >
                    Delete
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </ListSection>
      {dialog?.kind === 'create' && (
        <SystemForm
          title="New system"
          submitLabel="Create"
          initial={emptySystem}
          onClose={close}
          save={(fields) => api.catalog.createSystem(fields)}
        />
      )}
      {dialog?.kind === 'edit' && (
        <SystemForm
          title={`Edit ${dialog.system.name}`}
          submitLabel="Save"
          initial={dialog.system}
          onClose={close}
          save={(fields) => api.catalog.updateSystem({ id: dialog.system.id, ...fields })}
        />
      )}
      {dialog?.kind === 'access' && <SystemAccess system={dialog.system} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <ConfirmDelete
          title="Delete system"
          onClose={close}
          remove={() => api.catalog.deleteSystem({ id: dialog.system.id })}
        >
          Delete the system “{dialog.system.name}”?
        </ConfirmDelete>
      )}
    </>
  );
}
