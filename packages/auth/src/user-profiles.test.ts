import { servicePrincipal } from '@checkline/core/contract';
import { testPrincipal } from '@checkline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAccess } from './access.ts';
import { identities } from './db/schema.ts';
import { recordIdentity } from './identities.ts';
import type { AuthStrategy } from './strategies/strategy.ts';
import type { AuthTestKit } from './test-support.ts';
import { adminPrincipal, demoAccess, jsonPost, startAuth, testAdmin } from './test-support.ts';

/** A sign-in strategy that records the identity a provider vouches for (as OAuth ones will). */
const linkingStrategy: AuthStrategy = {
  id: 'acme',
  displayName: 'Acme login',
  actions: {
    link: {
      method: 'POST',
      async handle(context) {
        const { email, subject } = (await context.request.json()) as Record<string, string>;
        const user = await context.findUserByEmail(email!);
        if (!user) return context.fail('unknown');
        await context.recordIdentity({
          userId: user.id,
          provider: 'acme',
          subject: subject!,
          email: `${subject}@acme.example`,
        });
        return context.signIn(user.id);
      },
    },
  },
};

let auth: AuthTestKit;
const admin = adminPrincipal();
const service = servicePrincipal('notification');
let adminId: string;

beforeAll(async () => {
  auth = await startAuth({ strategies: [linkingStrategy] });
  const { users } = await auth.as(admin).getUsers({});
  adminId = users.find((user) => user.email === testAdmin.email)!.id;
});
afterAll(() => auth.close());

describe('getUserProfiles', () => {
  describe('works', () => {
    it('answers rules, teams and identities of each existing user, as their principal holds them', async () => {
      const role = await auth
        .as(admin)
        .createRole({ name: 'readers', accessRules: [demoAccess.read.id] });
      const user = await auth.as(admin).createUser({
        email: 'Reader@Example.com',
        name: 'Reader',
        password: 'a long enough password 1',
        roleIds: [role.id],
      });
      const team = await auth.as(admin).createTeam({ name: 'ops' });
      await auth.as(admin).addTeamMember({ teamId: team.id, userId: user.id });
      await recordIdentity(auth.db, {
        userId: user.id,
        provider: 'github',
        subject: '42',
        email: 'Reader@GitHub.example',
      });
      const unknown = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';

      const { profiles } = await auth
        .as(service)
        .getUserProfiles({ userIds: [user.id, adminId, unknown, user.id] });

      expect(profiles).toHaveLength(2);
      expect(profiles.find((profile) => profile.id === user.id)).toEqual({
        id: user.id,
        email: 'reader@example.com',
        name: 'Reader',
        isAdmin: false,
        accessRules: [demoAccess.read.id],
        teamIds: [team.id],
        identities: [{ provider: 'github', email: 'reader@github.example' }],
      });
      const adminProfile = profiles.find((profile) => profile.id === adminId)!;
      expect(adminProfile.isAdmin).toBe(true);
      expect(adminProfile.accessRules).toEqual(
        expect.arrayContaining([authAccess.users.id, demoAccess.read.id]),
      );
    });

    it('records the identity a sign-in strategy establishes, once per provider account', async () => {
      for (const attempt of [1, 2]) {
        const response = await auth.route(
          'POST',
          '/api/auth-backend/acme/link',
          jsonPost({ email: testAdmin.email, subject: 'admin-at-acme' }),
        );
        expect({ attempt, status: response.status }).toEqual({ attempt, status: 200 });
      }
      const { profiles } = await auth.as(service).getUserProfiles({ userIds: [adminId] });
      expect(profiles[0]!.identities).toEqual([
        { provider: 'acme', email: 'admin-at-acme@acme.example' },
      ]);
    });

    it('answers an empty list for no ids', async () => {
      await expect(auth.as(service).getUserProfiles({ userIds: [] })).resolves.toEqual({
        profiles: [],
      });
    });
  });

  describe('rejects bad input', () => {
    it('refuses more than 10 000 ids and ids that are not uuids', async () => {
      const many = Array.from({ length: 10_001 }, () => crypto.randomUUID());
      await expect(auth.as(service).getUserProfiles({ userIds: many })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      await expect(
        auth.as(service).getUserProfiles({ userIds: ['not-a-uuid'] }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });

    it('refuses to move a provider account to another user', async () => {
      const other = await auth.as(admin).createUser({
        email: 'other@example.com',
        password: 'a long enough password 2',
      });
      await expect(
        recordIdentity(auth.db, { userId: other.id, provider: 'acme', subject: 'admin-at-acme' }),
      ).rejects.toThrow('The acme account is already tied to another user');
      const rows = await auth.db.select().from(identities);
      expect(
        rows.filter((row) => row.subject === 'admin-at-acme').map((row) => row.userId),
      ).toEqual([adminId]);
    });
  });

  describe('refuses the wrong caller', () => {
    it('answers only the service principal, not even an admin user', async () => {
      for (const caller of [admin, testPrincipal([authAccess.users])]) {
        await expect(auth.as(caller).getUserProfiles({ userIds: [adminId] })).rejects.toMatchObject(
          { code: 'FORBIDDEN' },
        );
      }
    });
  });
});
