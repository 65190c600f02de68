import { useQuery, useQueryClient } from '@tanstack/react-query';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';

/** Every role (the server's page limit is far above the handful an installation keeps). */
const everyRole = () => orpc.auth.getRoles.queryOptions({ input: { limit: 1000 } });

export function useRoleList() {
  return useQuery(everyRole());
}

/** Every role, when the person may read roles: to show and tick the roles of a user or a key. */
export function useRoleChoices() {
  const me = useMe();
  const mayReadRoles = mayCall(me.data, contracts.auth.getRoles);
  const roles = useQuery({ ...everyRole(), enabled: mayReadRoles });
  return { mayReadRoles, roles };
}

export function useAccessRules() {
  return useQuery(orpc.auth.getAccessRules.queryOptions({ input: {} }));
}

/** Refetches the roles (and who holds what) after a change. */
export function useRefreshRoles() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: orpc.auth.getRoles.key() });
}
