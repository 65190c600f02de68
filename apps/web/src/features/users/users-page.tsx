import { Badge, Button, Group, Menu, Table, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { errorMessage } from '../../api/errors.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { Page } from '../../ui/page.tsx';
import { RegistrationSwitch } from './registration-switch.tsx';
import { UserEditor, type EditedUser } from './user-editor.tsx';
import { useRefreshUsers, useUsers } from './use-users.ts';
import { useRoleChoices } from '../roles/use-roles.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryBody } from '../../ui/query-body.tsx';
import { RowMenu } from '../../ui/row-menu.tsx';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'delete'; user: EditedUser } | null;

export function UsersPage() {
  const me = useMe();
  const may = {
    create: mayCall(me.data, contracts.auth.createUser),
    edit: mayCall(me.data, contracts.auth.updateUser),
    remove: mayCall(me.data, contracts.auth.deleteUser),
  };
  const users = useUsers();
  const { roles } = useRoleChoices();
  const refresh = useRefreshUsers();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const remove = useMutation(
    orpc.auth.deleteUser.mutationOptions({
      onSuccess: async () => {
        close();
        await refresh();
      },
    }),
  );
  const roleName = new Map((roles.data?.roles ?? []).map((role) => [role.id, role.name]));
  const rows = users.data?.pages.flatMap((page) => page.users) ?? [];

  return (
    <Page
      title="Users"
      actions={
        may.create && <Button onClick={() => setDialog({ kind: 'create' })}>New user</Button>
      }
    >
      <Title order={2} size="h4">
        Sign-up
      </Title>
      <RegistrationSwitch />
      <Title order={2} size="h4">
        Accounts
      </Title>
      <ErrorAlert error={users.error} />
      <QueryBody
        pending={users.isPending}
        loadingLabel="Loading users"
        isEmpty={rows.length === 0}
        empty={<Text>No users yet.</Text>}
      >
        <DataTable
          minWidth={640}
          striped
          verticalSpacing="sm"
          columns={['User', 'Roles', 'Created', { hidden: 'Actions' }]}
        >
          {rows.map((user) => (
            <Table.Tr key={user.id} data-testid={`user-${user.email}`}>
              <Table.Td>
                <Text fw={500}>{user.email}</Text>
                {user.name && (
                  <Text size="sm" c="dimmed">
                    {user.name}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {user.roleIds.length === 0 && <Text size="sm">None</Text>}
                  {user.roleIds.map((id) => (
                    <Badge key={id} variant="light" color="gray">
                      {roleName.get(id) ?? 'role'}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{formatTime(user.createdAt)}</Table.Td>
              <Table.Td>
                {(may.edit || may.remove) && (
                  <RowMenu label={`Actions for ${user.email}`}>
                    {may.edit && (
                      <Menu.Item onClick={() => setDialog({ kind: 'edit', user })}>Edit</Menu.Item>
                    )}
                    {may.remove && (
                      <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', user })}>
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
      <LoadMore query={users} />
      {dialog?.kind === 'create' && <UserEditor onClose={close} />}
      {dialog?.kind === 'edit' && <UserEditor user={dialog.user} onClose={close} />}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={`Delete ${dialog?.kind === 'delete' ? dialog.user.email : ''}?`}
        confirmLabel="Delete user"
        loading={remove.isPending}
        onConfirm={() => dialog?.kind === 'delete' && remove.mutate({ id: dialog.user.id })}
        onClose={close}
      >
        Their sessions end and they can no longer sign in. This cannot be undone.
        {remove.error ? ` ${errorMessage(remove.error)}` : ''}
      </ConfirmDialog>
    </Page>
  );
}
