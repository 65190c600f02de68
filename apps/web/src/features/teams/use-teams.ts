import { useQuery, useQueryClient } from '@tanstack/react-query';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';

/** The teams the person may see (a team count stays far below one page of 1000). */
export function useTeams() {
  return useQuery(orpc.auth.getTeams.queryOptions({ input: { limit: 1000 } }));
}

export function useRefreshTeams() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: orpc.auth.getTeams.key() });
}

/**
 * Users and applications the person may list, to pick members and to name them; ids of those
 * the person may not list are shown as ids.
 */
export function useMemberDirectory() {
  const me = useMe();
  const mayListUsers = mayCall(me.data, contracts.auth.getUsers);
  const mayListApplications = mayCall(me.data, contracts.auth.getApplications);
  const users = useQuery({
    ...orpc.auth.getUsers.queryOptions({ input: { limit: 1000 } }),
    enabled: mayListUsers,
  });
  const applications = useQuery({
    ...orpc.auth.getApplications.queryOptions({ input: { limit: 1000 } }),
    enabled: mayListApplications,
  });
  const names = new Map<string, string>();
  for (const user of users.data?.users ?? []) names.set(user.id, user.name || user.email);
  for (const application of applications.data?.applications ?? [])
    names.set(application.id, application.name);
  if (me.data?.id) names.set(me.data.id, `${me.data.name ?? me.data.email ?? 'You'} (you)`);
  return {
    mayListUsers,
    mayListApplications,
    users: users.data?.users ?? [],
    applications: applications.data?.applications ?? [],
    nameOf: (id: string) => names.get(id) ?? id,
  };
}
