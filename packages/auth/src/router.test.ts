import { testPrincipal } from '@checkline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAccess } from './access.ts';
import { auditLog } from './db/schema.ts';
import type { AuthTestKit } from './test-support.ts';
import { adminPrincipal, demoAccess, startAuth } from './test-support.ts';

let auth: AuthTestKit;
const admin = adminPrincipal();
const appManager = testPrincipal([authAccess.applications]);
const roleManager = testPrincipal([authAccess.roles, demoAccess.read]);
const teamManager = testPrincipal([authAccess.teams]);
const userManager = testPrincipal([authAccess.users]);
const nobody = testPrincipal([]);
const anonymous = testPrincipal([], { kind: 'anonymous', id: null as never });
const unknownId = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

const roleId = async (name: string) => {
  const { roles } = await auth.as(admin).getRoles({});
  return roles.find((role) => role.name === name)!.id;
};

describe('applications', () => {
  describe('works', () => {
    it('creates an application with the role applications and a key shown once', async () => {
      const { application, secret } = await auth.as(appManager).createApplication({
        name: 'ci-pipeline',
        description: 'deploys',
      });
      expect(secret).toMatch(new RegExp(`^ck_${application.id}_[A-Za-z0-9]{43}$`));
      expect(application).toMatchObject({
        name: 'ci-pipeline',
        description: 'deploys',
        roleIds: [await roleId('applications')],
        teamIds: [],
        expiresAt: null,
        lastUsedAt: null,
      });
      const { applications } = await auth.as(appManager).getApplications({});
      const listed = applications.find((item) => item.id === application.id);
      expect(listed).toEqual(application);
      expect(JSON.stringify(applications)).not.toContain(secret);
    });

    it('replaces the roles of an application with the ticked ones', async () => {
      const reader = await auth
        .as(admin)
        .createRole({ name: 'demo-readers', accessRules: [demoAccess.read.id] });
      const { application } = await auth.as(admin).createApplication({ name: 'ticked' });
      const updated = await auth.as(admin).updateApplication({
        id: application.id,
        roleIds: [reader.id],
        description: 'now with a role',
      });
      expect(updated.roleIds).toEqual([reader.id]);
      expect(updated.description).toBe('now with a role');
    });

    it('regenerates a key and deletes an application', async () => {
      const { application, secret } = await auth
        .as(appManager)
        .createApplication({ name: 'rotating' });
      const { secret: next } = await auth
        .as(appManager)
        .regenerateApplicationSecret({ id: application.id });
      expect(next).not.toBe(secret);
      expect(next.startsWith(`ck_${application.id}_`)).toBe(true);
      await expect(auth.as(appManager).deleteApplication({ id: application.id })).resolves.toEqual({
        id: application.id,
        deleted: true,
      });
    });
  });

  describe('rejects bad input', () => {
    it('answers CONFLICT for a taken name and NOT_FOUND for unknown ids and roles', async () => {
      await auth.as(appManager).createApplication({ name: 'taken-app' });
      await expect(
        auth.as(appManager).createApplication({ name: 'taken-app' }),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await expect(auth.as(appManager).deleteApplication({ id: unknownId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      const { application } = await auth.as(admin).createApplication({ name: 'role-typo' });
      await expect(
        auth.as(admin).updateApplication({ id: application.id, roleIds: [unknownId] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `Role ${unknownId} not found` });
      await expect(
        auth
          .as(appManager)
          .regenerateApplicationSecret({ id: application.id, gracePeriodSeconds: -1 }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses callers without auth.applications.manage', async () => {
      await expect(auth.as(nobody).createApplication({ name: 'x' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing access: auth.applications.manage',
      });
      await expect(auth.as(anonymous).getApplications({})).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
    });

    it('refuses to let a non-admin hand out access it does not hold', async () => {
      const { application } = await auth.as(appManager).createApplication({ name: 'escalation' });
      await expect(
        auth
          .as(appManager)
          .updateApplication({ id: application.id, roleIds: [await roleId('admin')] }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const readers = await auth.as(admin).createRole({
        name: 'demo-readers-2',
        accessRules: [demoAccess.read.id],
      });
      await expect(
        auth.as(appManager).updateApplication({ id: application.id, roleIds: [readers.id] }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message:
          'You cannot grant the role demo-readers-2: it holds demo.demo.read, which you do not hold',
      });
    });
  });
});

describe('roles and access rules', () => {
  it('lists every access rule of every plugin, the admin role holding all of them', async () => {
    const { accessRules } = await auth.as(roleManager).getAccessRules({});
    expect(accessRules.map((rule) => rule.id)).toEqual([
      'auth.applications.manage',
      'auth.audit.read',
      'auth.roles.manage',
      'auth.teams.manage',
      'auth.users.manage',
      'demo.demo.manage',
      'demo.demo.read',
    ]);
    const { roles } = await auth.as(roleManager).getRoles({});
    const adminRole = roles.find((role) => role.name === 'admin')!;
    expect(adminRole).toMatchObject({
      builtIn: true,
      accessRules: accessRules.map((rule) => rule.id),
    });
    expect(
      roles
        .filter((role) => role.builtIn)
        .map((role) => role.name)
        .sort(),
    ).toEqual(['admin', 'anonymous', 'applications', 'subscriber', 'users']);
  });

  it('creates, changes and deletes a role', async () => {
    const role = await auth.as(admin).createRole({
      name: 'operators',
      description: 'run things',
      accessRules: [demoAccess.read.id],
    });
    expect(role).toMatchObject({ builtIn: false, accessRules: ['demo.demo.read'] });
    const updated = await auth.as(admin).updateRole({
      id: role.id,
      accessRules: [demoAccess.read.id, demoAccess.manage.id],
    });
    expect(updated.accessRules).toEqual(['demo.demo.manage', 'demo.demo.read']);
    await auth.as(admin).deleteRole({ id: role.id });
    const { roles } = await auth.as(admin).getRoles({});
    expect(roles.some((item) => item.id === role.id)).toBe(false);
  });

  it('keeps the admin role whole and the built-in roles in place', async () => {
    const adminId = await roleId('admin');
    await expect(auth.as(admin).updateRole({ id: adminId, accessRules: [] })).rejects.toMatchObject(
      {
        code: 'CONFLICT',
        message: 'The admin role holds every access rule; it cannot be narrowed',
      },
    );
    await expect(auth.as(admin).deleteRole({ id: adminId })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(
      auth.as(admin).updateRole({ id: await roleId('users'), name: 'people' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses unknown rules, taken names and rules the caller does not hold', async () => {
    await expect(
      auth.as(admin).createRole({ name: 'typo', accessRules: ['demo.demo.raed'] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Unknown access rule demo.demo.raed' });
    await auth.as(admin).createRole({ name: 'dup-role', accessRules: [] });
    await expect(
      auth.as(admin).createRole({ name: 'dup-role', accessRules: [] }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      auth.as(roleManager).createRole({ name: 'grab', accessRules: [demoAccess.manage.id] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      auth.as(roleManager).createRole({ name: 'fine', accessRules: [demoAccess.read.id] }),
    ).resolves.toMatchObject({ name: 'fine' });
    await expect(auth.as(teamManager).getRoles({})).rejects.toMatchObject({
      message: 'Missing access: auth.roles.manage',
    });
  });
});

describe('users', () => {
  it('has bootstrapped the admin, who holds every rule', async () => {
    const { users } = await auth.as(userManager).getUsers({});
    expect(users.map((user) => user.email)).toContain('admin@example.com');
    const bootstrapped = users.find((user) => user.email === 'admin@example.com')!;
    expect(bootstrapped.roleIds.sort()).toEqual(
      [await roleId('admin'), await roleId('users')].sort(),
    );
  });

  it('creates a user with the role users and changes their name and roles', async () => {
    const user = await auth.as(admin).createUser({
      email: 'Dana@Example.com',
      name: 'Dana',
      password: 'long enough password',
    });
    expect(user).toMatchObject({ email: 'dana@example.com', roleIds: [await roleId('users')] });
    expect(JSON.stringify(user)).not.toContain('password');
    const updated = await auth.as(admin).updateUser({
      id: user.id,
      name: 'Dana S.',
      roleIds: [await roleId('users'), await roleId('admin')],
    });
    expect(updated.name).toBe('Dana S.');
    expect(updated.roleIds).toContain(await roleId('admin'));
    await auth.as(admin).updateUser({ id: user.id, roleIds: [await roleId('users')] });
  });

  it('keeps the last admin user an admin', async () => {
    const { users } = await auth.as(admin).getUsers({});
    const first = users.find((user) => user.email === 'admin@example.com')!;
    await expect(
      auth.as(admin).updateUser({ id: first.id, roleIds: [await roleId('users')] }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(auth.as(admin).deleteUser({ id: first.id })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('refuses short passwords, taken e-mails and callers without auth.users.manage', async () => {
    await expect(
      auth.as(admin).createUser({ email: 'x@example.com', password: 'short' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await auth
      .as(admin)
      .createUser({ email: 'taken@example.com', password: 'long enough password' });
    await expect(
      auth.as(admin).createUser({ email: 'TAKEN@example.com', password: 'long enough password' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(auth.as(appManager).getUsers({})).rejects.toMatchObject({
      message: 'Missing access: auth.users.manage',
    });
    await expect(
      auth.as(userManager).createUser({
        email: 'boss@example.com',
        password: 'long enough password',
        roleIds: [await roleId('admin')],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('login strategies', () => {
  it('lists the e-mail and password form, open to anyone, without a sign-in URL', async () => {
    await expect(auth.as(anonymous).getLoginStrategies({})).resolves.toEqual({
      strategies: [{ id: 'custom', displayName: 'E-mail and password', signInUrl: null }],
    });
  });
});

describe('registration', () => {
  it('is off by default, open to anyone to read, and changed by user managers', async () => {
    await expect(auth.as(anonymous).getRegistrationStatus({})).resolves.toEqual({
      allowRegistration: false,
    });
    await expect(
      auth.as(userManager).updateRegistrationStatus({ allowRegistration: true }),
    ).resolves.toEqual({ allowRegistration: true });
    await expect(auth.as(nobody).getRegistrationStatus({})).resolves.toEqual({
      allowRegistration: true,
    });
    await expect(
      auth.as(nobody).updateRegistrationStatus({ allowRegistration: false }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await auth.as(userManager).updateRegistrationStatus({ allowRegistration: false });
  });
});

describe('getMe', () => {
  it('answers the caller, and refuses anonymous callers', async () => {
    const { application } = await auth.as(admin).createApplication({ name: 'me-app' });
    const me = testPrincipal([demoAccess.read], { id: application.id, teamIds: [] });
    await expect(auth.as(me).getMe({})).resolves.toEqual({
      kind: 'application',
      id: application.id,
      accessRules: ['demo.demo.read'],
      teamIds: [],
      isAdmin: false,
      name: 'me-app',
      email: null,
    });
    await expect(auth.as(anonymous).getMe({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('audit log', () => {
  it('records who changed what, without secrets, newest first', async () => {
    const { application, secret } = await auth
      .as(appManager)
      .createApplication({ name: 'audited' });
    const { secret: rotated } = await auth.as(appManager).regenerateApplicationSecret({
      id: application.id,
      gracePeriodSeconds: 60,
    });
    await auth.as(appManager).deleteApplication({ id: application.id });
    const { entries } = await auth.as(testPrincipal([authAccess.audit])).getAuditLog({ limit: 3 });
    expect(entries.map((entry) => entry.action)).toEqual([
      'application.deleted',
      'application.secret_regenerated',
      'application.created',
    ]);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'application', id: appManager.id },
      targetType: 'application',
      targetId: application.id,
    });
    expect(entries[1]!.details).toEqual({ gracePeriodSeconds: 60 });
    const everything = JSON.stringify(await auth.db.select().from(auditLog));
    expect(everything).not.toContain(secret.slice(-43));
    expect(everything).not.toContain(rotated.slice(-43));
    await expect(auth.as(appManager).getAuditLog({})).rejects.toMatchObject({
      message: 'Missing access: auth.audit.read',
    });
  });

  it('pages with before and filters by action', async () => {
    const reader = testPrincipal([authAccess.audit]);
    const { entries: page } = await auth.as(reader).getAuditLog({ limit: 2 });
    const { entries: next } = await auth.as(reader).getAuditLog({ limit: 2, before: page[1]!.at });
    expect(next.every((entry) => entry.at < page[1]!.at)).toBe(true);
    const { entries: created } = await auth.as(reader).getAuditLog({ action: 'role.created' });
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((entry) => entry.action === 'role.created')).toBe(true);
  });

  it('filters by actor', async () => {
    const reader = testPrincipal([authAccess.audit]);
    const roleMaker = testPrincipal([authAccess.roles], {
      id: '00000000-0000-4000-8000-0000000000a1',
    });
    await auth.as(roleMaker).createRole({ name: 'audited-by-actor', accessRules: [] });
    await auth.as(appManager).createApplication({ name: 'audited-by-other-actor' });
    const { entries } = await auth.as(reader).getAuditLog({ actorId: roleMaker.id! });
    expect(entries.map((entry) => entry.action)).toEqual(['role.created']);
    expect(entries[0]!.actor).toEqual({ kind: roleMaker.kind, id: roleMaker.id });
    const { entries: nobody } = await auth
      .as(reader)
      .getAuditLog({ actorId: '00000000-0000-4000-8000-000000000000' });
    expect(nobody).toEqual([]);
  });
});

describe('an update to a name or e-mail someone else holds', () => {
  /** How the admin makes one of a kind named `name` (its id) and renames one, and the refusal. */
  interface Kind {
    make(name: string): Promise<string>;
    rename(id: string, name: string): Promise<unknown>;
    taken(name: string): string;
  }
  const password = 'long enough password';
  const kinds: Record<string, Kind> = {
    application: {
      make: async (name) => (await auth.as(admin).createApplication({ name })).application.id,
      rename: (id, name) => auth.as(admin).updateApplication({ id, name }),
      taken: (name) => `An application named "${name}" already exists`,
    },
    role: {
      make: async (name) => (await auth.as(admin).createRole({ name, accessRules: [] })).id,
      rename: (id, name) => auth.as(admin).updateRole({ id, name }),
      taken: (name) => `A role named "${name}" already exists`,
    },
    team: {
      make: async (name) => (await auth.as(admin).createTeam({ name })).id,
      rename: (id, name) => auth.as(admin).updateTeam({ id, name }),
      taken: (name) => `A team named "${name}" already exists`,
    },
    user: {
      make: async (name) =>
        (await auth.as(admin).createUser({ email: `${name}@example.com`, password })).id,
      rename: (id, name) => auth.as(admin).updateUser({ id, email: `${name}@example.com` }),
      taken: (name) => `A user with the e-mail ${name}@example.com already exists`,
    },
  };

  it.each(Object.keys(kinds))(
    'answers CONFLICT naming it for a %s, and NOT_FOUND for an unknown id',
    async (kind) => {
      const { make, rename, taken } = kinds[kind]!;
      const id = await make(`renamed-${kind}`);
      await make(`kept-${kind}`);
      await expect(rename(id, `kept-${kind}`)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: taken(`kept-${kind}`),
      });
      await expect(rename(unknownId, `nobody-${kind}`)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    },
  );
});
