import { Button, Checkbox, Modal, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { useMemberDirectory, useRefreshTeams } from './use-teams.ts';

type Kind = 'user' | 'application';

/** Adds a user or an application to a team, as a member or a manager. */
export function AddMember({
  team,
  onClose,
}: {
  team: { id: string; name: string };
  onClose: () => void;
}) {
  const directory = useMemberDirectory();
  const refresh = useRefreshTeams();
  const [kind, setKind] = useState<Kind>('user');
  const [memberId, setMemberId] = useState<string | null>(null);
  const [manager, setManager] = useState(false);
  const add = useMutation(
    orpc.auth.addTeamMember.mutationOptions({
      onSuccess: async () => {
        onClose();
        await refresh();
      },
    }),
  );
  const issues = fieldIssues(add.error);
  const listed = kind === 'user' ? directory.mayListUsers : directory.mayListApplications;
  const choices =
    kind === 'user'
      ? directory.users.map((user) => ({ value: user.id, label: user.email }))
      : directory.applications.map((application) => ({
          value: application.id,
          label: application.name,
        }));
  const label = kind === 'user' ? 'User' : 'Application';
  const fieldError = issues.userId ?? issues.applicationId;

  return (
    <Modal opened onClose={onClose} title={`Add a member to ${team.name}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!memberId) return;
          add.mutate({
            teamId: team.id,
            ...(kind === 'user' ? { userId: memberId } : { applicationId: memberId }),
            manager,
          });
        }}
      >
        <Stack>
          {!fieldError && <ErrorAlert error={add.error} />}
          <SegmentedControl
            aria-label="Kind of member"
            value={kind}
            onChange={(value) => {
              setKind(value as Kind);
              setMemberId(null);
            }}
            data={[
              { value: 'user', label: 'User' },
              { value: 'application', label: 'Application' },
            ]}
          />
          {listed ? (
            <Select
              label={label}
              required
              searchable
              data-autofocus
              data={choices}
              value={memberId}
              error={fieldError}
              nothingFoundMessage="Nobody by that name"
              onChange={setMemberId}
            />
          ) : (
            <TextInput
              label={`${label} id`}
              description="You may not list them; ask for the id."
              required
              data-autofocus
              value={memberId ?? ''}
              error={fieldError}
              onChange={(event) => setMemberId(event.currentTarget.value || null)}
            />
          )}
          <Checkbox
            label="Manager"
            description="Managers may change the team and its members."
            checked={manager}
            onChange={(event) => setManager(event.currentTarget.checked)}
          />
          <Button type="submit" loading={add.isPending} disabled={!memberId} w="fit-content">
            Add member
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
