import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProcedureMeta } from '@checkline/core/contract';
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
  'statuspage.page.read',
  'statuspage.page.manage',
  'statuspage.page.publish',
  'notification.subscriptions.own',
  'notification.subscriptions.manage',
] as const;

export type CallerName = 'holder' | 'outsider' | 'admin';

export interface Answer {
  status: number;
  body: any;
}

export type AdminCall = (
  pluginId: string,
  body: Record<string, unknown>,
) => Promise<Record<string, any>>;

/** Keyed calls with the admin's session headers; each throws unless it succeeds. */
export function adminCaller(server: TestServer, session: Record<string, string>): AdminCall {
  return async function asAdmin(pluginId, body) {
    const response = await server.request(`/api/${pluginId}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(JSON.stringify(answer));
    return answer;
  };
}

/** A new application holding `roleIds`, and its key. */
export async function applicationWithRoles(asAdmin: AdminCall, name: string, roleIds: string[]) {
  const { createApplication } = await asAdmin('auth', { createApplication: { name } });
  await asAdmin('auth', { updateApplication: { id: createApplication.application.id, roleIds } });
  return {
    id: createApplication.application.id as string,
    key: createApplication.secret as string,
  };
}

/** A new user holding `roleIds`, signed in: the headers a browser would send with its session. */
export async function userWithRoles(
  server: TestServer,
  asAdmin: AdminCall,
  name: string,
  roleIds: string[],
) {
  const email = `${name}@example.com`;
  const password = `${name}-correct-horse-battery`;
  const { createUser } = await asAdmin('auth', { createUser: { email, password, roleIds } });
  return { id: createUser.id as string, session: await server.sessionOf(email, password) };
}

/** The procedures of `body` that only signed-in users may call (their own inbox, channels, subscriptions). */
function onlyForUsers(server: TestServer, pluginId: string, body: Record<string, unknown>) {
  const plugin = server.checkline.plugins.find((candidate) => candidate.id === pluginId);
  const contract = (plugin?.contract ?? {}) as Record<string, { '~orpc': { meta: ProcedureMeta } }>;
  const names = Object.keys(body);
  return (
    names.length > 0 &&
    names.every((name) => {
      const principals = contract[name]?.['~orpc'].meta.principals;
      return principals !== undefined && !principals.includes('application');
    })
  );
}

/**
 * A server with a team-only system and three callers holding every monitoring rule: `holder`
 * (in the team granted `manage` on it), `outsider` (in no team) and `admin` (the admin role).
 * Each caller is an application with its own key, and a signed-in user with the same roles and
 * teams, who makes the calls only users may make.
 */
export async function seedTeamWorld(server: TestServer) {
  const asAdmin = adminCaller(server, await server.adminSession());
  const application = (name: string, roleIds: string[]) =>
    applicationWithRoles(asAdmin, name, roleIds);

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
  const users: Record<CallerName, Awaited<ReturnType<typeof userWithRoles>>> = {
    holder: await userWithRoles(server, asAdmin, 'holder-user', [role.id]),
    outsider: await userWithRoles(server, asAdmin, 'outsider-user', [role.id]),
    admin: await userWithRoles(server, asAdmin, 'admin-user', [adminRole.id]),
  };
  await asAdmin('auth', { addTeamMember: { teamId: team.id, userId: users.holder.id } });

  let count = 0;
  /** Makes a system team-only, with a `manage` grant to the team. */
  async function restrict(systemId: string): Promise<void> {
    await asAdmin('auth', {
      updateResourceAccess: {
        resourceType: 'catalog.system',
        resourceId: systemId,
        teamOnly: true,
        grants: [{ teamId: team.id, access: 'manage' }],
      },
    });
  }

  /** A new system only the team may reach (`manage` grant, team-only). */
  async function hiddenSystem(): Promise<string> {
    const { createSystem } = await asAdmin('catalog', {
      createSystem: { name: `hidden-${++count}` },
    });
    await restrict(createSystem.id);
    return createSystem.id as string;
  }

  /** A new system with no grants: the global rules decide. */
  async function openSystem(): Promise<string> {
    const { createSystem } = await asAdmin('catalog', {
      createSystem: { name: `open-${++count}` },
    });
    return createSystem.id as string;
  }

  /** A new team without members, to route alerts to. */
  async function newTeam(): Promise<string> {
    const { createTeam } = await asAdmin('auth', { createTeam: { name: `team-${++count}` } });
    return createTeam.id as string;
  }

  const keys: Record<CallerName, string> = {
    holder: holder.key,
    outsider: outsider.key,
    admin: admin.key,
  };

  /** A keyed call (one key or a batch) as `caller`: its user for user-only procedures, else its key. */
  async function call(
    caller: CallerName,
    pluginId: string,
    body: Record<string, unknown>,
  ): Promise<Answer> {
    const response = onlyForUsers(server, pluginId, body)
      ? await server.request(`/api/${pluginId}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...users[caller].session },
          body: JSON.stringify(body),
        })
      : await server.keyed(pluginId, body, keys[caller]);
    return { status: response.status, body: await response.json() };
  }

  /** What a REST call as `caller` sends to be authenticated: the user's session or the key. */
  function credentials(caller: CallerName, pluginId: string, name: string) {
    return onlyForUsers(server, pluginId, { [name]: {} })
      ? { headers: users[caller].session }
      : { token: keys[caller] };
  }

  return {
    asAdmin,
    hiddenSystem,
    openSystem,
    newTeam,
    restrict,
    call,
    credentials,
    keys,
    users,
    unique: () => ++count,
  };
}

export type TeamWorld = Awaited<ReturnType<typeof seedTeamWorld>>;

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/**
 * Inputs for, and fresh objects made by the admin of, each kind of object attached to `systemId`:
 * a group holding it, an http check of it (on `targetUrl`), an active window, an open incident
 * and a status page listing it.
 */
export function attachedObjects(world: TeamWorld, systemId: string, targetUrl: string) {
  const checkInput = () => ({
    systemId,
    name: `check-${world.unique()}`,
    type: 'healthcheck.http',
    config: { url: targetUrl },
    intervalSeconds: 3_600,
    timeoutMs: 2_000,
  });
  const windowInput = () => ({
    title: `window-${world.unique()}`,
    systemIds: [systemId],
    startAt: hoursFromNow(-1),
    endAt: hoursFromNow(1),
  });
  const incidentInput = () => ({
    title: `incident-${world.unique()}`,
    severity: 'minor',
    systemIds: [systemId],
  });
  const idOf = async (pluginId: string, procedure: string, input: unknown): Promise<string> =>
    (await world.asAdmin(pluginId, { [procedure]: input }))[procedure].id;
  const pageInput = () => {
    const slug = `page-${world.unique()}`;
    return {
      slug,
      title: slug,
      sections: [
        { title: 'Services', items: [{ kind: 'system', systemId, displayName: 'Shown' }] },
      ],
    };
  };
  /** A group with no system yet. */
  const emptyGroup = () => idOf('catalog', 'createGroup', { name: `group-${world.unique()}` });
  return {
    checkInput,
    windowInput,
    incidentInput,
    pageInput,
    emptyGroup,
    async group(): Promise<string> {
      const groupId = await emptyGroup();
      await world.asAdmin('catalog', { addSystemToGroup: { groupId, systemId } });
      return groupId;
    },
    check: () => idOf('healthcheck', 'createHealthCheck', checkInput()),
    window: () => idOf('maintenance', 'scheduleWindow', windowInput()),
    incident: () => idOf('incident', 'createIncident', incidentInput()),
    page: () => idOf('statuspage', 'createPage', pageInput()),
  };
}

/** A plain HTTP server on a loopback port that answers every request with 200: the checks' target. */
export async function startLoopbackTarget() {
  const target = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => target.close(() => resolve())),
  };
}

/** Rejects with a clear message when `work` has not settled after `ms`: a hang fails, not stalls. */
export function withDeadline<T>(work: T | Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
