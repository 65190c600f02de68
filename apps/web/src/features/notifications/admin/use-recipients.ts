import { useQuery } from '@tanstack/react-query';
import { mayCall } from '../../../api/access.ts';
import { orpc } from '../../../api/client.ts';
import { contracts } from '../../../api/contracts.ts';
import { useMe } from '../../../api/me.ts';

/**
 * Who each user id is (`name <e-mail>`), for the delivery log's recipients: the first 1000 users
 * by e-mail, asked only of someone who may list users. Unknown ids stay ids.
 */
export function useRecipients() {
  const me = useMe();
  const users = useQuery({
    ...orpc.auth.getUsers.queryOptions({ input: { limit: 1000 } }),
    enabled: mayCall(me.data, contracts.auth.getUsers),
  });
  const byId = new Map(
    (users.data?.users ?? []).map((user) => [user.id, `${user.name} <${user.email}>`]),
  );
  return (userId: string) => byId.get(userId);
}
