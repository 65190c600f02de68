import { Badge, Button, Group, Menu, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { RowMenu } from '../../ui/row-menu.tsx';
import { errorMessage } from '../../api/errors.ts';
import { useMe } from '../../api/me.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { AddMember } from './add-member.tsx';
import { mayManageTeam, type TeamMember } from './team-access.ts';
import { TeamEditor } from './team-editor.tsx';
import { useMemberDirectory, useRefreshTeams } from './use-teams.ts';

interface Team {
  id: string;
  name: string;
  description: string;
  members: TeamMember[];
}

type Dialog = 'edit' | 'add' | 'delete' | { remove: TeamMember } | null;

const memberRef = (member: TeamMember) =>
  member.kind === 'user' ? { userId: member.id } : { applicationId: member.id };

export function TeamCard({ team }: { team: Team }) {
  const me = useMe();
  const directory = useMemberDirectory();
  const refresh = useRefreshTeams();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const mayManage = me.data ? mayManageTeam(me.data, team) : false;
  const mayDelete = mayCall(me.data, contracts.auth.deleteTeam);
  const showError = (error: unknown) =>
    notifications.show({ color: 'red', message: errorMessage(error) });
  const setManager = useMutation(
    orpc.auth.addTeamMember.mutationOptions({ onSettled: refresh, onError: showError }),
  );
  const remove = useMutation(
    orpc.auth.removeTeamMember.mutationOptions({
      onSuccess: async () => {
        close();
        await refresh();
      },
    }),
  );
  const removeTeam = useMutation(
    orpc.auth.deleteTeam.mutationOptions({
      onSuccess: async () => {
        close();
        await refresh();
      },
    }),
  );
  const removing = typeof dialog === 'object' && dialog !== null ? dialog.remove : null;

  return (
    <Paper withBorder p="md" data-testid={`team-${team.name}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={2} size="h4">
              {team.name}
            </Title>
            {team.description && (
              <Text size="sm" c="dimmed">
                {team.description}
              </Text>
            )}
          </div>
          {(mayManage || mayDelete) && (
            <RowMenu label={`Actions for team ${team.name}`}>
              {mayManage && <Menu.Item onClick={() => setDialog('edit')}>Edit</Menu.Item>}
              {mayDelete && (
                <Menu.Item color="red" onClick={() => setDialog('delete')}>
                  Delete
                </Menu.Item>
              )}
            </RowMenu>
          )}
        </Group>
        {team.members.length === 0 ? (
          <Text size="sm">No members yet.</Text>
        ) : (
          <DataTable
            minWidth={360}
            verticalSpacing="xs"
            columns={['Member', 'Role in team', { hidden: 'Actions' }]}
          >
            {team.members.map((member) => {
              const name = directory.nameOf(member.id);
              return (
                <Table.Tr key={`${member.kind}-${member.id}`}>
                  <Table.Td>
                    <Text size="sm">{name}</Text>
                    <Text size="xs" c="dimmed">
                      {member.kind}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {member.manager ? (
                      <Badge variant="light">manager</Badge>
                    ) : (
                      <Text size="sm">member</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {mayManage && (
                      <RowMenu
                        variant="subtle"
                        label={`Actions for member ${name} of ${team.name}`}
                      >
                        <Menu.Item
                          onClick={() =>
                            setManager.mutate({
                              teamId: team.id,
                              ...memberRef(member),
                              manager: !member.manager,
                            })
                          }
                        >
                          {member.manager ? 'Make plain member' : 'Make manager'}
                        </Menu.Item>
                        <Menu.Item color="red" onClick={() => setDialog({ remove: member })}>
                          Remove from team
                        </Menu.Item>
                      </RowMenu>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </DataTable>
        )}
        {mayManage && (
          <Button variant="default" w="fit-content" onClick={() => setDialog('add')}>
            Add member
          </Button>
        )}
      </Stack>
      {dialog === 'edit' && <TeamEditor team={team} onClose={close} />}
      {dialog === 'add' && <AddMember team={team} onClose={close} />}
      <ConfirmDialog
        opened={removing !== null}
        title={`Remove ${removing ? directory.nameOf(removing.id) : ''} from ${team.name}?`}
        confirmLabel="Remove member"
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate({ teamId: team.id, ...memberRef(removing) })}
        onClose={close}
      >
        They lose what the team's grants give them.
        {remove.error ? ` ${errorMessage(remove.error)}` : ''}
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={`Delete team ${team.name}?`}
        confirmLabel="Delete team"
        loading={removeTeam.isPending}
        onConfirm={() => removeTeam.mutate({ id: team.id })}
        onClose={close}
      >
        Its members lose what its grants give them. This cannot be undone.
        {removeTeam.error ? ` ${errorMessage(removeTeam.error)}` : ''}
      </ConfirmDialog>
    </Paper>
  );
}
