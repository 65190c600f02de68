import { useMutation } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ModalForm } from '../../ui/modal-form.tsx';
import { useNameDescription } from '../../ui/use-name-description.ts';
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
  const fields = useNameDescription(team ?? { name: '', description: '' });
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
    <ModalForm
      title={team ? `Edit team ${team.name}` : 'New team'}
      onClose={onClose}
      onSubmit={() => {
        const { name, description } = fields;
        if (team) update.mutate({ id: team.id, name, description });
        else create.mutate({ name, description });
      }}
      error={save.error}
      saving={save.isPending}
      submitLabel={team ? 'Save team' : 'Create team'}
      fitSubmit
    >
      <NameDescriptionFields {...fields} issues={issues} />
    </ModalForm>
  );
}
