import { actsOnPrincipals } from '@checkline/auth';
import { authContract } from '@checkline/auth/contract';
import type { AuthContract } from '@checkline/auth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import type { ContractRouterClient } from '@orpc/contract';
import { contractClient } from './support/contract-client.ts';
import { createTestServer, testAdmin, testEnv, type TestServer } from './support/test-server.ts';

type Contracts = { auth: AuthContract };
type Client = ContractRouterClient<Contracts>;
type Principal = { kind: 'user' | 'application'; id: string };

let server: TestServer;
let admin: Client;
let adminUserId: string;
let adminRoleId: string;
let adminApp: { id: string; secret: string };

const clientWith = (headers: Record<string, string>) =>
  contractClient<Contracts>(() => server, headers);

let names = 0;
const unique = (prefix: string) => `${prefix}-${++names}`;

/** A role holding exactly `rules` (cached by rule set). */
const roleIds = new Map<string, string>();
async function roleHolding(rules: string[]): Promise<string> {
  const key = rules.join(',');
  if (!roleIds.has(key)) {
    const role = await admin.auth.createRole({ name: unique('holds'), accessRules: rules });
    roleIds.set(key, role.id);
  }
  return roleIds.get(key)!;
}

async function newApplication(roles: string[]) {
  const { application, secret } = await admin.auth.createApplication({ name: unique('app') });
  await admin.auth.updateApplication({ id: application.id, roleIds: roles });
  return { id: application.id, secret };
}

async function newUser(roles: string[]) {
  const user = await admin.auth.createUser({
    email: `${unique('user')}@example.com`,
    password: 'a sound enough password',
    roleIds: roles,
  });
  return user.id;
}

/** POST /api/auth/ with one key, as the application holding `secret`. */
async function call(secret: string, procedure: string, input: unknown) {
  const response = await server.keyed('auth', { [procedure]: input }, secret);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const login = (password: string, username = testAdmin.email) =>
  server.request('/api/auth-backend/custom/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

beforeAll(async () => {
  server = await createTestServer({
    plugins: createPlugins(testEnv, { rateLimits: { failedAuthPerIp: false } }),
  });
  const { cookie } = await server.adminSession();
  admin = clientWith({ cookie, origin: testEnv.BASE_URL });
  const { users } = await admin.auth.getUsers({});
  const adminUser = users.find((user) => user.email === testAdmin.email)!;
  adminUserId = adminUser.id;
  const { roles } = await admin.auth.getRoles({});
  adminRoleId = roles.find((role) => role.name === 'admin')!.id;
  adminApp = await newApplication([adminRoleId]);
});
afterAll(() => server.close());

/** Puts `principal` in `teamId` (as a manager when asked). */
const join = (teamId: string, principal: Principal, manager = false) =>
  admin.auth.addTeamMember({ teamId, [`${principal.kind}Id`]: principal.id, manager });

/** A new team with `principal` as its manager. */
async function teamManagedBy(principal: Principal) {
  const team = await admin.auth.createTeam({ name: unique('team') });
  await join(team.id, principal, true);
  return team;
}

/** A new user or application with no roles. */
const lesserPrincipal = async (kind: Principal['kind']): Promise<Principal> =>
  kind === 'user' ? { kind, id: await newUser([]) } : { kind, id: (await newApplication([])).id };

/** The case of `procedure`; the table must have one for every procedure that acts on principals. */
function caseOf(procedure: string) {
  const found = cases[procedure];
  if (!found) throw new Error(`${procedure} acts on principals but has no case in this test`);
  return found;
}

/**
 * Every procedure that acts on another user or application: the one rule it needs, and the
 * input that acts on `target` (after any set-up it needs, such as a team holding the target).
 */
const cases: Record<
  string,
  {
    rule: string;
    kinds: Principal['kind'][];
    input: (target: Principal, caller: Principal) => Promise<unknown>;
  }
> = {
  updateUser: {
    rule: 'auth.users.manage',
    kinds: ['user'],
    input: async (target) => ({ id: target.id, name: 'renamed' }),
  },
  deleteUser: {
    rule: 'auth.users.manage',
    kinds: ['user'],
    input: async (target) => ({ id: target.id }),
  },
  updateApplication: {
    rule: 'auth.applications.manage',
    kinds: ['application'],
    input: async (target) => ({ id: target.id, description: 'changed' }),
  },
  deleteApplication: {
    rule: 'auth.applications.manage',
    kinds: ['application'],
    input: async (target) => ({ id: target.id }),
  },
  regenerateApplicationSecret: {
    rule: 'auth.applications.manage',
    kinds: ['application'],
    input: async (target) => ({ id: target.id, gracePeriodSeconds: 604_800 }),
  },
  addTeamMember: {
    rule: 'auth.teams.manage',
    kinds: ['user', 'application'],
    input: async (target) => {
      const team = await admin.auth.createTeam({ name: unique('team') });
      return { teamId: team.id, [`${target.kind}Id`]: target.id };
    },
  },
  removeTeamMember: {
    rule: 'auth.teams.manage',
    kinds: ['user', 'application'],
    // The caller manages the team: the target's membership in it is within the caller's reach.
    input: async (target, caller) => {
      const team = await teamManagedBy(caller);
      const member = { [`${target.kind}Id`]: target.id };
      await admin.auth.addTeamMember({ teamId: team.id, ...member });
      return { teamId: team.id, ...member };
    },
  },
  deleteTeam: {
    rule: 'auth.teams.manage',
    kinds: ['user', 'application'],
    input: async (target, caller) => {
      const team = await teamManagedBy(caller);
      await admin.auth.addTeamMember({ teamId: team.id, [`${target.kind}Id`]: target.id });
      return { id: team.id };
    },
  },
};

/** Mutations of the auth contract that act on no existing user or application. */
const actOnNoPrincipal = [
  'updateRegistrationStatus',
  'createUser',
  'createApplication',
  'createRole',
  'updateRole',
  'deleteRole',
  'createTeam',
  'updateTeam',
  'updateResourceAccess',
  'changeMyPassword',
];

describe('acting on another principal', () => {
  it('is declared for every mutation of the auth contract that acts on one', () => {
    const mutations = Object.entries(authContract)
      .filter(([, procedure]) => procedure['~orpc'].meta.kind === 'mutation')
      .map(([name]) => name);
    const declared = Object.keys(actsOnPrincipals);
    expect(declared.sort()).toEqual(Object.keys(cases).sort());
    for (const name of mutations) {
      expect(
        declared.includes(name) || actOnNoPrincipal.includes(name),
        `${name} is classified`,
      ).toBe(true);
    }
  });

  for (const procedure of Object.keys(actsOnPrincipals)) {
    const { rule, kinds, input } = caseOf(procedure);
    for (const kind of kinds) {
      it(`${procedure}: holding only ${rule}, refused on an admin ${kind}, allowed on an equal or lesser one`, async () => {
        const caller = await newApplication([await roleHolding([rule])]);
        const callerRef: Principal = { kind: 'application', id: caller.id };
        const adminTarget: Principal = {
          kind,
          id: kind === 'user' ? await newUser([adminRoleId]) : adminApp.id,
        };
        const stronger: Principal =
          kind === 'user'
            ? { kind, id: await newUser([await roleHolding([rule, 'auth.audit.read'])]) }
            : { kind, ...(await newApplication([await roleHolding([rule, 'auth.audit.read'])])) };
        for (const target of [adminTarget, stronger]) {
          const refused = await call(caller.secret, procedure, await input(target, callerRef));
          expect(refused.status, `${procedure} on ${JSON.stringify(target)}`).toBe(403);
          expect(refused.body).toMatchObject({ code: 'FORBIDDEN', procedure });
          expect(String(refused.body.message)).toMatch(/admin|holds auth\.audit\.read/);
        }
        const equal: Principal =
          kind === 'user'
            ? { kind, id: await newUser([await roleHolding([rule])]) }
            : { kind, ...(await newApplication([await roleHolding([rule])])) };
        const lesser: Principal =
          kind === 'user'
            ? { kind, id: await newUser([]) }
            : { kind, ...(await newApplication([])) };
        for (const target of [equal, lesser]) {
          const allowed = await call(caller.secret, procedure, await input(target, callerRef));
          expect(allowed.status, `${procedure} on ${JSON.stringify(target)}`).toBe(200);
        }
      });

      it(`${procedure}: refused on a ${kind} in a team the caller is not in, or managing one the caller only belongs to`, async () => {
        const caller = await newApplication([await roleHolding([rule])]);
        const callerRef: Principal = { kind: 'application', id: caller.id };
        const foreignTeam = await admin.auth.createTeam({ name: unique('team') });
        const sharedTeam = await admin.auth.createTeam({ name: unique('team') });
        await join(sharedTeam.id, callerRef);

        const inForeignTeam = await lesserPrincipal(kind);
        await join(foreignTeam.id, inForeignTeam);
        const managerOfShared = await lesserPrincipal(kind);
        await join(sharedTeam.id, managerOfShared, true);
        const refusals: [Principal, RegExp][] = [
          [inForeignTeam, new RegExp(`member of team ${foreignTeam.id}, which you are not`)],
          [managerOfShared, new RegExp(`manages team ${sharedTeam.id}, which you do not`)],
        ];
        for (const [target, why] of refusals) {
          const refused = await call(caller.secret, procedure, await input(target, callerRef));
          expect(refused.status, `${procedure} on ${JSON.stringify(target)}`).toBe(403);
          expect(refused.body).toMatchObject({ code: 'FORBIDDEN', procedure });
          expect(String(refused.body.message)).toMatch(why);
        }

        const memberOfShared = await lesserPrincipal(kind);
        await join(sharedTeam.id, memberOfShared);
        const allowed = await call(
          caller.secret,
          procedure,
          await input(memberOfShared, callerRef),
        );
        expect(allowed.status, `${procedure} on a member of the caller's team`).toBe(200);
      });
    }
  }
});

describe('the attacks of issue 8', () => {
  it('a user manager cannot set the admin password (or e-mail) and sign in as the admin', async () => {
    const caller = await newApplication([await roleHolding(['auth.users.manage'])]);
    const password = 'attacker chosen password';
    const byPassword = await call(caller.secret, 'updateUser', { id: adminUserId, password });
    expect(byPassword.status).toBe(403);
    expect(byPassword.body.message).toMatch(/admin/);
    const byEmail = await call(caller.secret, 'updateUser', {
      id: adminUserId,
      email: 'attacker@example.com',
    });
    expect(byEmail.status).toBe(403);
    expect((await login(password)).status).toBe(302);
    expect((await login(password, 'attacker@example.com')).status).toBe(302);
    expect((await login(testAdmin.password)).status).toBe(200);
  });

  it('an application manager cannot rotate, delete or expire an admin application', async () => {
    const caller = await newApplication([await roleHolding(['auth.applications.manage'])]);
    const rotated = await call(caller.secret, 'regenerateApplicationSecret', {
      id: adminApp.id,
      gracePeriodSeconds: 604_800,
    });
    expect(rotated.status).toBe(403);
    expect(JSON.stringify(rotated.body)).not.toMatch(/ck_/);
    const deleted = await call(caller.secret, 'deleteApplication', { id: adminApp.id });
    expect(deleted.status).toBe(403);
    // A past expiry is refused as input; a near one as acting on an admin.
    const expired = await call(caller.secret, 'updateApplication', {
      id: adminApp.id,
      expiresAt: '2020-01-01T00:00:00.000Z',
    });
    expect(expired.status).toBe(400);
    const expiring = await call(caller.secret, 'updateApplication', {
      id: adminApp.id,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(expiring.status).toBe(403);
    const me = await call(adminApp.secret, 'getMe', {});
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ getMe: { id: adminApp.id, isAdmin: true } });
  });
});

describe('roles and resource grants', () => {
  it('keep the anonymous role to read rules, and grants to resource types that exist', async () => {
    const { roles } = await admin.auth.getRoles({});
    const anonymous = roles.find((role) => role.name === 'anonymous')!;
    const { cookie } = await server.adminSession();
    const asAdmin = (body: unknown) =>
      server.request('/api/auth/', {
        method: 'POST',
        headers: { cookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const widened = await asAdmin({
      updateRole: {
        id: anonymous.id,
        accessRules: ['catalog.catalog.read', 'catalog.catalog.manage'],
      },
    });
    expect(widened.status).toBe(400);
    expect(await widened.json()).toMatchObject({
      message: expect.stringContaining('catalog.catalog.manage is not a read rule'),
    });
    const reads = await asAdmin({
      updateRole: { id: anonymous.id, accessRules: ['catalog.catalog.read'] },
    });
    expect(reads.status).toBe(200);
    await admin.auth.updateRole({ id: anonymous.id, accessRules: [] });

    const unknown = await asAdmin({
      updateResourceAccess: { resourceType: 'catalog.nothing', resourceId: 'x', grants: [] },
    });
    expect(unknown.status).toBe(400);
    const known = await asAdmin({
      updateResourceAccess: {
        resourceType: 'catalog.system',
        resourceId: crypto.randomUUID(),
        grants: [],
      },
    });
    expect(known.status).toBe(200);
  });
});
