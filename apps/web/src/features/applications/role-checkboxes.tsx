import { Checkbox, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { useRefreshApplications } from './use-applications.ts';

/** One checkbox per role; ticking sends the application's whole new set of roles. */
export function RoleCheckboxes({
  application,
  roles,
}: {
  application: { id: string; name: string; roleIds: string[] };
  roles: readonly { id: string; name: string }[];
}) {
  const refresh = useRefreshApplications();
  const update = useMutation(
    orpc.auth.updateApplication.mutationOptions({
      onSettled: refresh,
      onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
    }),
  );
  const held = new Set(update.isPending ? (update.variables.roleIds ?? []) : application.roleIds);
  return (
    <Group gap="sm">
      {roles.map((role) => (
        <Checkbox
          key={role.id}
          label={role.name}
          aria-label={`Role ${role.name} for ${application.name}`}
          checked={held.has(role.id)}
          disabled={update.isPending}
          onChange={(event) => {
            const next = new Set(held);
            if (event.currentTarget.checked) next.add(role.id);
            else next.delete(role.id);
            update.mutate({ id: application.id, roleIds: [...next] });
          }}
        />
      ))}
    </Group>
  );
}
