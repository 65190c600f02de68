import { servicePrincipal } from '@checkline/core/contract';
import { testPrincipal } from '@checkline/core/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAccess } from './access.ts';
import { applications } from './db/schema.ts';
import type { AuthTestKit } from './test-support.ts';
import { adminPrincipal, demoAccess, startAuth } from './test-support.ts';

let auth: AuthTestKit;
const admin = adminPrincipal();
const service = servicePrincipal('notification');

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

describe('getApplicationProfiles', () => {
  describe('works', () => {
    it('answers name, rules and teams of each existing application, as its principal holds them', async () => {
      const role = await auth
        .as(admin)
        .createRole({ name: 'app-readers', accessRules: [demoAccess.read.id] });
      const { application } = await auth.as(admin).createApplication({ name: 'Integrator' });
      await auth.as(admin).updateApplication({ id: application.id, roleIds: [role.id] });
      const team = await auth.as(admin).createTeam({ name: 'integrations' });
      await auth.as(admin).addTeamMember({ teamId: team.id, applicationId: application.id });
      const unknown = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a12';

      const { profiles } = await auth.as(service).getApplicationProfiles({
        applicationIds: [application.id, unknown, application.id],
      });

      expect(profiles).toEqual([
        {
          id: application.id,
          name: 'Integrator',
          isAdmin: false,
          accessRules: [demoAccess.read.id],
          teamIds: [team.id],
        },
      ]);
    });

    it('leaves out a deleted application and one whose key has expired', async () => {
      const { application: deleted } = await auth.as(admin).createApplication({ name: 'Gone' });
      await auth.as(admin).deleteApplication({ id: deleted.id });
      const { application: expired } = await auth.as(admin).createApplication({ name: 'Old' });
      await auth.db
        .update(applications)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(applications.id, expired.id));
      const { application: live } = await auth.as(admin).createApplication({ name: 'Live' });

      const { profiles } = await auth.as(service).getApplicationProfiles({
        applicationIds: [deleted.id, expired.id, live.id],
      });

      expect(profiles.map((profile) => profile.id)).toEqual([live.id]);
    });
  });

  describe('rejects bad input', () => {
    it('refuses more than 10 000 ids and ids that are not uuids', async () => {
      const many = Array.from({ length: 10_001 }, () => crypto.randomUUID());
      await expect(
        auth.as(service).getApplicationProfiles({ applicationIds: many }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(
        auth.as(service).getApplicationProfiles({ applicationIds: ['not-a-uuid'] }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });

  describe('refuses the wrong caller', () => {
    it('answers only the service principal, not even an admin user', async () => {
      for (const caller of [admin, testPrincipal([authAccess.applications])]) {
        await expect(
          auth.as(caller).getApplicationProfiles({ applicationIds: [] }),
        ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      }
    });
  });
});
