import type { TestServer } from './test-server.ts';

/** Every rule of the plugins behind auth: what the holder and the outsider both hold. */
export const monitoringRules = [
  'catalog.catalog.read',
  'catalog.catalog.manage',
  'healthcheck.healthcheck.read',
  'healthcheck.healthcheck.manage',
  'maintenance.maintenance.read',
  'maintenance.maintenance.manage',
  'incident.incident.read',
  'incident.incident.manage',
] as const;

export type CallerName = 'holder' | 'outsider' | 'admin';

export interface Answer {
  status: number;
  body: any;
}

/**
 * A server with a team-only system and three callers holding every monitoring rule: `holder`
 * (in the team granted `manage` on it), `outsider` (in no team) and `admin` (the admin role).
 * Each caller is an application with its own key.
 */
export async function seedTeamWorld(server: TestServer) {
  const session = await server.adminSession();

  /** A keyed call as the admin's session; throws unless it succeeds. */
  async function asAdmin(pluginId: string, body: Record<string, unknown>) {
    const response = await server.request(`/api/${pluginId}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(JSON.stringify(answer));
    return answer;
  }

  async function application(name: string, roleIds: string[]) {
    const { createApplication } = await asAdmin('auth', { createApplication: { name } });
    await asAdmin('auth', {
      updateApplication: { id: createApplication.application.id, roleIds },
    });
    return { id: createApplication.application.id as string, key: createApplication.secret as string };
  }

  const { createRole: role } = await asAdmin('auth', {
    createRole: { name: 'monitoring', accessRules: [...monitoringRules] },
  });
  const { getRoles } = await asAdmin('auth', { getRoles: {} });
  const adminRole = (getRoles.roles as { id: string; name: string }[]).find(
    (item) => item.name === 'admin',
  )!;
  const { createTeam: team } = await asAdmin('auth', { createTeam: { name: 'owners' } });
  const holder = await application('holder', [role.id]);
  const outsider = await application('outsider', [role.id]);
  const admin = await application('admin-bot', [adminRole.id]);
  await asAdmin('auth', { addTeamMember: { teamId: team.id, applicationId: holder.id } });

  let count = 0;
  /** A new system only the team may reach (`manage` grant, team-only). */
  async function hiddenSystem(): Promise<string> {
    const { createSystem } = await asAdmin('catalog', {
      createSystem: { name: `hidden-${++count}` },
    });
    await asAdmin('auth', {
      updateResourceAccess: {
        resourceType: 'catalog.system',
        resourceId: createSystem.id,
        teamOnly: true,
        grants: [{ teamId: team.id, access: 'manage' }],
      },
    });
    return createSystem.id as string;
  }

  /** A new system with no grants: the global rules decide. */
  async function openSystem(): Promise<string> {
    const { createSystem } = await asAdmin('catalog', {
      createSystem: { name: `open-${++count}` },
    });
    return createSystem.id as string;
  }

  const keys: Record<CallerName, string> = {
    holder: holder.key,
    outsider: outsider.key,
    admin: admin.key,
  };

  /** A keyed call (one key or a batch) as `caller`. */
  async function call(
    caller: CallerName,
    pluginId: string,
    body: Record<string, unknown>,
  ): Promise<Answer> {
    const response = await server.keyed(pluginId, body, keys[caller]);
    return { status: response.status, body: await response.json() };
  }

  return { asAdmin, hiddenSystem, openSystem, call, keys, unique: () => ++count };
}

export type TeamWorld = Awaited<ReturnType<typeof seedTeamWorld>>;

/** Rejects with a clear message when `work` has not settled after `ms`: a hang fails, not stalls. */
export function withDeadline<T>(work: T | Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
