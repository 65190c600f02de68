import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { cursorPages } from '../../api/cursor-pages.ts';

export interface AuditFilters {
  action?: string;
  actorId?: string;
  before?: string;
}

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery(
    orpc.auth.getAuditLog.infiniteOptions(cursorPages({ limit: 50, ...filters })),
  );
}

/** Names of the users and applications the person may list, to show and pick actors by name. */
export function useActors() {
  const me = useMe();
  const users = useQuery({
    ...orpc.auth.getUsers.queryOptions({ input: { limit: 1000 } }),
    enabled: mayCall(me.data, contracts.auth.getUsers),
  });
  const applications = useQuery({
    ...orpc.auth.getApplications.queryOptions({ input: { limit: 1000 } }),
    enabled: mayCall(me.data, contracts.auth.getApplications),
  });
  const actors = [
    ...(users.data?.users ?? []).map((user) => ({ value: user.id, label: user.email })),
    ...(applications.data?.applications ?? []).map((application) => ({
      value: application.id,
      label: `${application.name} (application)`,
    })),
  ];
  const names = new Map(actors.map((actor) => [actor.value, actor.label]));
  return { actors, nameOf: (id: string) => names.get(id) };
}
