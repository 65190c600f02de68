import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTeamWorld, type TeamWorld } from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 19 item 5, replayed over HTTP: a caller holding only `auth.users.manage` (or
 * `auth.applications.manage`) set the password of a team member with no roles (or rotated the
 * key of such an application), then, as that member, read and changed a team-only system its
 * team holds. Acting on a principal now needs its team reach too.
 */
let server: TestServer;
let world: TeamWorld;
let teamId: string;

const LOGIN = '/api/auth-backend/custom/login';

const login = (username: string, password: string) =>
  server.request(LOGIN, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

/** A role holding exactly `rules`. */
async function roleHolding(name: string, rules: string[]): Promise<string> {
  const { createRole } = await world.asAdmin('auth', { createRole: { name, accessRules: rules } });
  return createRole.id as string;
}

async function keyHolding(name: string, rules: string[]): Promise<string> {
  const roleId = await roleHolding(name, rules);
  const { createApplication } = await world.asAdmin('auth', { createApplication: { name } });
  const id = createApplication.application.id as string;
  await world.asAdmin('auth', { updateApplication: { id, roleIds: [roleId] } });
  return createApplication.secret as string;
}

async function keyed(key: string, pluginId: string, body: Record<string, unknown>) {
  const response = await server.keyed(pluginId, body, key);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  server = await createTestServer();
  world = await seedTeamWorld(server);
  const { getTeams } = await world.asAdmin('auth', { getTeams: {} });
  teamId = (getTeams.teams as { id: string; name: string }[]).find(
    (team) => team.name === 'owners',
  )!.id;
});
afterAll(() => server.close());

describe('a user manager outside the team', () => {
  it('cannot set the password of a team member with no roles, nor use the team through it', async () => {
    const systemId = await world.hiddenSystem();
    const email = 'team-member-no-roles@example.com';
    const ownPassword = 'the member own long password';
    const { createUser } = await world.asAdmin('auth', {
      createUser: { email, password: ownPassword, roleIds: [] },
    });
    await world.asAdmin('auth', { addTeamMember: { teamId, userId: createUser.id } });
    // The member alone reaches the team-only system through the team's grant.
    const member = await server.sessionOf(email, ownPassword);
    const asMember = await server.request('/api/catalog/', {
      method: 'POST',
      headers: { ...member, 'content-type': 'application/json' },
      body: JSON.stringify({ getSystem: { id: systemId } }),
    });
    expect(asMember.status).toBe(200);

    const attacker = await keyHolding('user-manager', ['auth.users.manage']);
    const chosen = 'attacker chosen password';
    const reset = await keyed(attacker, 'auth', {
      updateUser: { id: createUser.id, password: chosen },
    });
    expect(reset.status).toBe(403);
    expect(reset.body).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining(`member of team ${teamId}, which you are not`),
    });
    const renamed = await keyed(attacker, 'auth', {
      updateUser: { id: createUser.id, email: 'attacker@example.com' },
    });
    expect(renamed.status).toBe(403);

    expect((await login(email, chosen)).status).toBe(302);
    expect((await login(email, ownPassword)).status).toBe(200);
    const { getSystem } = await world.asAdmin('catalog', { getSystem: { id: systemId } });
    expect(getSystem.name).toMatch(/^hidden-/);
  });

  it('may act on the same member once it is in the team itself', async () => {
    const email = 'team-member-reached@example.com';
    const { createUser } = await world.asAdmin('auth', {
      createUser: { email, password: 'the member own long password', roleIds: [] },
    });
    await world.asAdmin('auth', { addTeamMember: { teamId, userId: createUser.id } });
    const roleId = await roleHolding('user-manager-in-team', ['auth.users.manage']);
    const { createApplication } = await world.asAdmin('auth', {
      createApplication: { name: 'user-manager-in-team' },
    });
    const managerId = createApplication.application.id as string;
    await world.asAdmin('auth', { updateApplication: { id: managerId, roleIds: [roleId] } });
    await world.asAdmin('auth', { addTeamMember: { teamId, applicationId: managerId } });
    const renamed = await keyed(createApplication.secret as string, 'auth', {
      updateUser: { id: createUser.id, name: 'Renamed by a teammate' },
    });
    expect(renamed.status).toBe(200);
  });
});

describe('an application manager outside the team', () => {
  it('cannot rotate the key of a team member application, nor use the team through it', async () => {
    const systemId = await world.hiddenSystem();
    const { createApplication } = await world.asAdmin('auth', {
      createApplication: { name: 'team-bot-no-roles' },
    });
    const botId = createApplication.application.id as string;
    const botKey = createApplication.secret as string;
    await world.asAdmin('auth', { updateApplication: { id: botId, roleIds: [] } });
    await world.asAdmin('auth', { addTeamMember: { teamId, applicationId: botId } });
    expect((await keyed(botKey, 'catalog', { getSystem: { id: systemId } })).status).toBe(200);

    const attacker = await keyHolding('application-manager', ['auth.applications.manage']);
    const rotated = await keyed(attacker, 'auth', {
      regenerateApplicationSecret: { id: botId, gracePeriodSeconds: 0 },
    });
    expect(rotated.status).toBe(403);
    expect(JSON.stringify(rotated.body)).not.toMatch(/ck_/);
    expect(rotated.body.message).toContain(`member of team ${teamId}, which you are not`);
    const deleted = await keyed(attacker, 'auth', { deleteApplication: { id: botId } });
    expect(deleted.status).toBe(403);

    // The bot's own key still works, and the system is as the team left it.
    const reread = await keyed(botKey, 'catalog', { getSystem: { id: systemId } });
    expect(reread.status).toBe(200);
    expect(reread.body.getSystem.name).toMatch(/^hidden-/);
  });
});
