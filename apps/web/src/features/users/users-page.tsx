import {
  ActionIcon,
  Badge,
  Button,
  Center,
  Group,
  Menu,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
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
import { Loading } from '../../ui/loading.tsx';

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
      {users.isPending ? (
        <Center mih={120}>
          <Loading label="Loading users" />
        </Center>
      ) : rows.length === 0 ? (
        <Text>No users yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
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
                      <Menu position="bottom-end">
                        <Menu.Target>
                          <ActionIcon variant="default" aria-label={`Actions for ${user.email}`}>
                            <span aria-hidden="true">⋯</span>
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          {may.edit && (
                            <Menu.Item onClick={() => setDialog({ kind: 'edit', user })}>
                              Edit
                            </Menu.Item>
                          )}
                          {may.remove && (
                            <Menu.Item
                              color="red"
                              onClick={() => setDialog({ kind: 'delete', user })}
                            >
                              Delete
                            </Menu.Item>
                          )}
                        </Menu.Dropdown>
                      </Menu>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {users.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={users.isFetchingNextPage}
          onClick={() => void users.fetchNextPage()}
        >
          Load more
        </Button>
      )}
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
