import type { TestServer } from './test-server.ts';

/** An application holding the `admin` role, made through the admin's session; answers its key. */
export async function createAdminKey(server: TestServer, name = 'admin-app'): Promise<string> {
  const session = await server.adminSession();
  const headers = {
    'content-type': 'application/json',
    cookie: session.cookie,
    origin: session.origin,
  };
  const keyed = async (body: unknown) => {
    const response = await server.request('/api/auth/', {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(JSON.stringify(answer));
    return answer;
  };
  const { getRoles } = await keyed({ getRoles: {} });
  const adminRole = (getRoles.roles as { id: string; name: string }[]).find(
    (role) => role.name === 'admin',
  );
  if (!adminRole) throw new Error('no admin role');
  const { createApplication } = await keyed({ createApplication: { name } });
  await keyed({
    updateApplication: { id: createApplication.application.id, roleIds: [adminRole.id] },
  });
  return createApplication.secret as string;
}
