import { Button, Group, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, orpc } from '../../api/client.ts';
import { ConfirmDelete } from '../../ui/confirm-delete.tsx';
import { ListSection } from '../../ui/list-section.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { emptyGroup, GroupForm, type GroupFields } from './group-form.tsx';

type Dialog =
  { kind: 'create' } | { kind: 'edit' | 'delete'; group: GroupFields & { id: string } } | null;

/** Every group with its member systems: create, rename, change members, delete. */
export function GroupsTable() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const groups = useQuery(orpc.catalog.getGroups.queryOptions({ input: { limit: 1000 } }));
  const systems = useQuery(orpc.catalog.getSystems.queryOptions({ input: { limit: 1000 } }));
  const nameOf = new Map(systems.data?.systems.map((system) => [system.id, system.name]));
  const rows = groups.data?.groups ?? [];
  return (
    <>
      <ListSection
        id="catalog-groups"
        title="Groups"
        action={<Button onClick={() => setDialog({ kind: 'create' })}>New group</Button>}
        error={groups.error}
        isEmpty={groups.isSuccess && rows.length === 0}
        empty="No groups yet."
      >
        <DataTable
          minWidth={600}
          verticalSpacing="xs"
          aria-labelledby="catalog-groups"
          columns={['Name', 'Systems', 'Actions']}
        >
          {rows.map((group) => (
            <Table.Tr key={group.id} data-group={group.name}>
              <Table.Td>{group.name}</Table.Td>
              <Table.Td>
                {group.systemIds.map((id) => nameOf.get(id) ?? id).join(', ') || '—'}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Edit group ${group.name}`}
                    onClick={() => setDialog({ kind: 'edit', group })}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    color="red"
                    variant="light"
                    aria-label={`Delete group ${group.name}`}
                    onClick={() => setDialog({ kind: 'delete', group })}
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
        <GroupForm title="New group" submitLabel="Create" initial={emptyGroup} onClose={close} />
      )}
      {dialog?.kind === 'edit' && (
        <GroupForm
          title={`Edit group ${dialog.group.name}`}
          submitLabel="Save"
          initial={dialog.group}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDelete
          title="Delete group"
          onClose={close}
          remove={() => api.catalog.deleteGroup({ id: dialog.group.id })}
        >
          Delete the group “{dialog.group.name}”? Its systems stay.
        </ConfirmDelete>
      )}
    </>
  );
}
