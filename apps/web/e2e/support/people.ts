import type { UiServer } from './ui-server.ts';

interface Person {
  email: string;
  password: string;
  name: string;
}

/**
 * Creates `person` holding the built-in role `users` and a new role `roleName` of `accessRules`;
 * gives the id of `users` for others made alongside.
 */
export async function createPersonWithRules(
  ui: UiServer,
  admin: Record<string, string>,
  person: Person,
  roleName: string,
  accessRules: string[],
): Promise<{ usersRoleId: string }> {
  const { roles } = await ui.call<{ roles: { id: string; name: string }[] }>(
    'auth',
    'getRoles',
    { limit: 100 },
    admin,
  );
  const usersRoleId = roles.find((role) => role.name === 'users')!.id;
  const role = await ui.call<{ id: string }>(
    'auth',
    'createRole',
    { name: roleName, accessRules },
    admin,
  );
  await ui.call('auth', 'createUser', { ...person, roleIds: [usersRoleId, role.id] }, admin);
  return { usersRoleId };
}
