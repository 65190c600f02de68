import { Button, Modal, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { useRefreshTeams } from './use-teams.ts';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';

/** Creates a team (no `team`) or renames one. */
export function TeamEditor({
  team,
  onClose,
}: {
  team?: { id: string; name: string; description: string };
  onClose: () => void;
}) {
  const refresh = useRefreshTeams();
  const [name, setName] = useState(team?.name ?? '');
  const [description, setDescription] = useState(team?.description ?? '');
  const done = {
    onSuccess: async () => {
      onClose();
      await refresh();
    },
  };
  const create = useMutation(orpc.auth.createTeam.mutationOptions(done));
  const update = useMutation(orpc.auth.updateTeam.mutationOptions(done));
  const save = team ? update : create;
  const issues = fieldIssues(save.error);
  return (
    <Modal opened onClose={onClose} title={team ? `Edit team ${team.name}` : 'New team'}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (team) update.mutate({ id: team.id, name, description });
          else create.mutate({ name, description });
        }}
      >
        <Stack>
          {Object.keys(issues).length === 0 && <ErrorAlert error={save.error} />}
          <NameDescriptionFields
            name={name}
            description={description}
            issues={issues}
            onName={setName}
            onDescription={setDescription}
          />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {team ? 'Save team' : 'Create team'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
