import { Badge, Button, Group, Menu, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { errorMessage } from '../../api/errors.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Page } from '../../ui/page.tsx';
import { RoleEditor, type EditedRole } from './role-editor.tsx';
import { useRefreshRoles, useRoleList } from './use-roles.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { QueryBody } from '../../ui/query-body.tsx';
import { RowMenu } from '../../ui/row-menu.tsx';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'delete'; role: EditedRole } | null;

/** The admin role holds every rule by definition; there is nothing to tick. */
const isAdminRole = (role: EditedRole) => role.builtIn && role.name === 'admin';

export function RolesPage() {
  const me = useMe();
  const may = {
    create: mayCall(me.data, contracts.auth.createRole),
    edit: mayCall(me.data, contracts.auth.updateRole),
    remove: mayCall(me.data, contracts.auth.deleteRole),
  };
  const roles = useRoleList();
  const refresh = useRefreshRoles();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const remove = useMutation(
    orpc.auth.deleteRole.mutationOptions({
      onSuccess: async () => {
        close();
        await refresh();
      },
    }),
  );
  const rows = roles.data?.roles ?? [];

  return (
    <Page
      title="Roles"
      actions={
        may.create && <Button onClick={() => setDialog({ kind: 'create' })}>New role</Button>
      }
    >
      <Text c="dimmed">
        A role is a set of access rules. Users and applications may do what their roles allow.
      </Text>
      <ErrorAlert error={roles.error} />
      <QueryBody
        pending={roles.isPending}
        loadingLabel="Loading roles"
        isEmpty={rows.length === 0}
        empty={<Text>No roles yet.</Text>}
      >
        <DataTable
          minWidth={560}
          striped
          verticalSpacing="sm"
          columns={['Name', 'Rules', { hidden: 'Actions' }]}
        >
          {rows.map((role) => (
            <Table.Tr key={role.id} data-testid={`role-${role.name}`}>
              <Table.Td>
                <Group gap="xs">
                  <Text fw={500}>{role.name}</Text>
                  {role.builtIn && (
                    <Badge variant="light" color="gray">
                      built-in
                    </Badge>
                  )}
                </Group>
                {role.description && (
                  <Text size="sm" c="dimmed">
                    {role.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {isAdminRole(role) ? 'Every rule' : `${role.accessRules.length} rules`}
              </Table.Td>
              <Table.Td>
                {!isAdminRole(role) && (may.edit || (may.remove && !role.builtIn)) && (
                  <RowMenu label={`Actions for ${role.name}`}>
                    {may.edit && (
                      <Menu.Item onClick={() => setDialog({ kind: 'edit', role })}>Edit</Menu.Item>
                    )}
                    {may.remove && !role.builtIn && (
                      <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', role })}>
                        Delete
                      </Menu.Item>
                    )}
                  </RowMenu>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </QueryBody>
      {dialog?.kind === 'create' && <RoleEditor onClose={close} />}
      {dialog?.kind === 'edit' && <RoleEditor role={dialog.role} onClose={close} />}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={`Delete role ${dialog?.kind === 'delete' ? dialog.role.name : ''}?`}
        confirmLabel="Delete role"
        loading={remove.isPending}
        onConfirm={() => dialog?.kind === 'delete' && remove.mutate({ id: dialog.role.id })}
        onClose={close}
      >
        Everyone holding it loses its rules at once.
        {remove.error ? ` ${errorMessage(remove.error)}` : ''}
      </ConfirmDialog>
    </Page>
  );
}
