import { connectPostgres } from '@checkline/db';
import type { TestPostgres } from '@checkline/db/testing';
import { createTestPostgres } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminCall } from './support/team-world.ts';
import { adminCaller, applicationWithRoles, userWithRoles } from './support/team-world.ts';
import type { TestServer } from './support/test-server.ts';
import { createTestServer } from './support/test-server.ts';
import { withinOneSecond } from './support/within-one-second.ts';

/*
 * Two servers on one PostgreSQL database, as two processes behind a load balancer would be. Each
 * change that invalidates what a server cached about a caller is made through A; B, which has
 * just cached the caller, must stop honouring the old state within a second (its caches keep
 * principals and grants for 60 s, so only the shared invalidation can do it).
 */
let database: TestPostgres;
let a: TestServer;
let b: TestServer;
let asAdmin: AdminCall;
let adminRoleRules: string[];

beforeAll(async () => {
  database = await createTestPostgres();
  // Grants are kept for 60 s like principals, so that a second is only reached by invalidation.
  const auth = { cache: { grantsTtlSeconds: 60 } };
  a = await createTestServer({ auth, database: connectPostgres(database.url, { poolSize: 3 }) });
  b = await createTestServer({ auth, database: connectPostgres(database.url, { poolSize: 3 }) });
  asAdmin = adminCaller(a, await a.adminSession());
  adminRoleRules = ['catalog.catalog.read', 'catalog.catalog.manage'];
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await database?.drop();
});

type Credentials = Record<string, string>;
const bearer = (key: string): Credentials => ({ authorization: `Bearer ${key}` });

/** The systems B lists to the caller, or the status it refuses them with. */
async function systemsOnB(credentials: Credentials): Promise<string[] | number> {
  const response = await b.request('/api/catalog/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...credentials },
    body: JSON.stringify({ getSystems: {} }),
  });
  if (response.status !== 200) return response.status;
  const body = (await response.json()) as { getSystems: { systems: { id: string }[] } };
  return body.getSystems.systems.map((system) => system.id);
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

async function role(accessRules = adminRoleRules) {
  const { createRole } = await asAdmin('auth', {
    createRole: { name: unique('role'), accessRules },
  });
  return createRole.id as string;
}

/** A team-only system granted to a new team, and a key of an application in that team. */
async function teamWorld() {
  const roleId = await role();
  const app = await applicationWithRoles(asAdmin, unique('member'), [roleId]);
  const { createTeam } = await asAdmin('auth', { createTeam: { name: unique('team') } });
  await asAdmin('auth', { addTeamMember: { teamId: createTeam.id, applicationId: app.id } });
  const { createSystem } = await asAdmin('catalog', { createSystem: { name: unique('system') } });
  await asAdmin('auth', {
    updateResourceAccess: {
      resourceType: 'catalog.system',
      resourceId: createSystem.id,
      teamOnly: true,
      grants: [{ teamId: createTeam.id, access: 'read' }],
    },
  });
  return { app, teamId: createTeam.id as string, systemId: createSystem.id as string };
}

interface Case {
  name: string;
  /** Makes the caller and answers its credentials, how to change it through A, and the proof. */
  arrange(): Promise<{
    credentials: Credentials;
    change: () => Promise<unknown>;
    /** What B answers before the change, and what it must answer after it. */
    before: (answer: string[] | number) => boolean;
    after: (answer: string[] | number) => boolean;
  }>;
}

const refused = (status: number) => (answer: string[] | number) => answer === status;
const listed = (answer: string[] | number) => Array.isArray(answer);
const lists = (id: string) => (answer: string[] | number) =>
  Array.isArray(answer) && answer.includes(id);
const hides = (id: string) => (answer: string[] | number) =>
  Array.isArray(answer) && !answer.includes(id);

/** A case on an application key holding one role; `change` is made to the application. */
const keyCase = (
  name: string,
  change: (applicationId: string) => Promise<unknown>,
  after: (answer: string[] | number) => boolean,
): Case => ({
  name,
  async arrange() {
    const app = await applicationWithRoles(asAdmin, unique('app'), [await role()]);
    return { credentials: bearer(app.key), change: () => change(app.id), before: listed, after };
  },
});

/** A case on an application key holding one new role; `change` is made to the role. */
const roleCase = (name: string, change: (roleId: string) => Promise<unknown>): Case => ({
  name,
  async arrange() {
    const roleId = await role();
    const app = await applicationWithRoles(asAdmin, unique('app'), [roleId]);
    return {
      credentials: bearer(app.key),
      change: () => change(roleId),
      before: listed,
      after: refused(403),
    };
  },
});

/** A case on a signed-in user holding one role; `change` is made to the user. */
const userCase = (
  name: string,
  change: (user: { id: string; session: Credentials }) => Promise<unknown>,
  after: (answer: string[] | number) => boolean,
): Case => ({
  name,
  async arrange() {
    const user = await userWithRoles(a, asAdmin, unique('user'), [await role()]);
    return { credentials: user.session, change: () => change(user), before: listed, after };
  },
});

/** A case on a team member's key, which sees its team's system until `change` (to the team). */
const teamCase = (
  name: string,
  change: (world: Awaited<ReturnType<typeof teamWorld>>) => Promise<unknown>,
): Case => ({
  name,
  async arrange() {
    const world = await teamWorld();
    return {
      credentials: bearer(world.app.key),
      change: () => change(world),
      before: lists(world.systemId),
      after: hides(world.systemId),
    };
  },
});

const cases: Case[] = [
  keyCase(
    'a key rotated (regenerateApplicationSecret)',
    (id) => asAdmin('auth', { regenerateApplicationSecret: { id } }),
    refused(401),
  ),
  keyCase(
    'a key expired (updateApplication expiresAt)',
    async (id) => {
      await asAdmin('auth', {
        updateApplication: { id, expiresAt: new Date(Date.now() + 300).toISOString() },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    refused(401),
  ),
  keyCase(
    'a key re-roled (updateApplication roleIds)',
    (id) => asAdmin('auth', { updateApplication: { id, roleIds: [] } }),
    refused(403),
  ),
  keyCase(
    'a key revoked (deleteApplication)',
    (id) => asAdmin('auth', { deleteApplication: { id } }),
    refused(401),
  ),
  roleCase("a role's rules changed (updateRole)", (id) =>
    asAdmin('auth', { updateRole: { id, accessRules: [] } }),
  ),
  roleCase('a role deleted (deleteRole)', (id) => asAdmin('auth', { deleteRole: { id } })),
  userCase(
    'a user re-roled (updateUser roleIds)',
    (user) => asAdmin('auth', { updateUser: { id: user.id, roleIds: [] } }),
    refused(403),
  ),
  userCase(
    "a user's password reset, ending their sessions (updateUser password)",
    (user) =>
      asAdmin('auth', { updateUser: { id: user.id, password: 'a-brand-new-long-passphrase' } }),
    refused(401),
  ),
  userCase(
    'a user deleted (deleteUser)',
    (user) => asAdmin('auth', { deleteUser: { id: user.id } }),
    refused(401),
  ),
  userCase(
    'a session ended (logout)',
    async (user) => {
      const response = await a.request('/api/auth-backend/logout', {
        method: 'POST',
        headers: { ...user.session, 'content-type': 'application/json' },
      });
      expect(response.status).toBe(200);
    },
    refused(401),
  ),
  teamCase('a team member removed (removeTeamMember)', (world) =>
    asAdmin('auth', { removeTeamMember: { teamId: world.teamId, applicationId: world.app.id } }),
  ),
  teamCase('a team deleted (deleteTeam)', (world) =>
    asAdmin('auth', { deleteTeam: { id: world.teamId } }),
  ),
  teamCase('a team grant removed (updateResourceAccess)', (world) =>
    asAdmin('auth', {
      updateResourceAccess: {
        resourceType: 'catalog.system',
        resourceId: world.systemId,
        teamOnly: true,
        grants: [],
      },
    }),
  ),
];

describe('a change made through one server reaches the caches of another within a second', () => {
  it.each(cases)('$name', async ({ arrange }) => {
    const { credentials, change, before, after } = await arrange();
    // B verifies the caller and keeps it (and the grants it read).
    expect(before(await systemsOnB(credentials))).toBe(true);
    expect(before(await systemsOnB(credentials))).toBe(true);
    await change();
    const answer = await withinOneSecond(() => systemsOnB(credentials), after);
    expect(after(answer), `B still answers ${JSON.stringify(answer)}`).toBe(true);
  });
});
