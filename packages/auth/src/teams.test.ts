import type { Principal } from '@checkline/core';
import { testPrincipal } from '@checkline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAccess } from './access.ts';
import type { AuthTestKit } from './test-support.ts';
import { BASE_URL, adminPrincipal, demoAccess, startAuth } from './test-support.ts';

let auth: AuthTestKit;
const admin = adminPrincipal();
const TYPE = 'demo.thing';
const [thingA, thingB, thingC] = ['thing-a', 'thing-b', 'thing-c'];

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

/** A real application, resolved from its key as a request would be. */
async function application(name: string, rules: string[] = []) {
  const { application, secret } = await auth.as(admin).createApplication({ name });
  if (rules.length) {
    const role = await auth.as(admin).createRole({ name: `${name}-role`, accessRules: rules });
    await auth.as(admin).updateApplication({ id: application.id, roleIds: [role.id] });
  }
  const principal = () =>
    auth.resolve(new Request(BASE_URL, { headers: { authorization: `Bearer ${secret}` } }));
  return { id: application.id, principal };
}

describe('teams', () => {
  describe('works', () => {
    it('creates a team, adds and removes members, renames and deletes it', async () => {
      const app = await application('team-member');
      const team = await auth.as(admin).createTeam({ name: 'payments', description: 'money' });
      const filled = await auth.as(admin).addTeamMember({ teamId: team.id, applicationId: app.id });
      expect(filled.members).toEqual([{ kind: 'application', id: app.id, manager: false }]);
      expect((await app.principal()).teamIds).toEqual([team.id]);
      const renamed = await auth.as(admin).updateTeam({ id: team.id, name: 'payments-core' });
      expect(renamed).toMatchObject({ name: 'payments-core', description: 'money' });
      const emptied = await auth
        .as(admin)
        .removeTeamMember({ teamId: team.id, applicationId: app.id });
      expect(emptied.members).toEqual([]);
      expect((await app.principal()).teamIds).toEqual([]);
      await auth.as(admin).deleteTeam({ id: team.id });
      expect((await auth.as(admin).getTeams({})).teams.some((t) => t.id === team.id)).toBe(false);
    });

    it('shows a member without auth.teams.manage its own teams only', async () => {
      const app = await application('sees-own-team');
      const mine = await auth.as(admin).createTeam({ name: 'mine' });
      await auth.as(admin).createTeam({ name: 'not-mine' });
      await auth.as(admin).addTeamMember({ teamId: mine.id, applicationId: app.id });
      const { teams } = await auth.as(await app.principal()).getTeams({});
      expect(teams.map((team) => team.name)).toEqual(['mine']);
    });

    it('lets a manager of a team change that team, and no other', async () => {
      const lead = await application('team-lead');
      const newcomer = await application('newcomer');
      const team = await auth.as(admin).createTeam({ name: 'managed' });
      const other = await auth.as(admin).createTeam({ name: 'other-team' });
      await auth
        .as(admin)
        .addTeamMember({ teamId: team.id, applicationId: lead.id, manager: true });
      const asLead = auth.as(await lead.principal());
      await expect(
        asLead.addTeamMember({ teamId: team.id, applicationId: newcomer.id }),
      ).resolves.toMatchObject({
        members: expect.arrayContaining([expect.objectContaining({ id: newcomer.id })]),
      });
      await expect(asLead.updateTeam({ id: team.id, description: 'ours' })).resolves.toMatchObject({
        description: 'ours',
      });
      await expect(
        asLead.addTeamMember({ teamId: other.id, applicationId: lead.id }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'Missing access: auth.teams.manage' });
      await expect(asLead.deleteTeam({ id: team.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('rejects bad input', () => {
    it('needs exactly one of userId and applicationId, and known ids', async () => {
      const team = await auth.as(admin).createTeam({ name: 'strict' });
      await expect(auth.as(admin).addTeamMember({ teamId: team.id })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
      const unknown = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';
      await expect(
        auth.as(admin).addTeamMember({ teamId: team.id, userId: unknown, applicationId: unknown }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(
        auth.as(admin).addTeamMember({ teamId: team.id, applicationId: unknown }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `Application ${unknown} not found` });
      await expect(auth.as(admin).createTeam({ name: 'strict' })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      await expect(
        auth.as(admin).updateResourceAccess({
          resourceType: TYPE,
          resourceId: thingA,
          grants: [{ teamId: unknown, access: 'read' }],
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('refuses the wrong caller', () => {
    it('refuses a member with read access that adds anyone, itself included', async () => {
      const reader = await application('team-reader', [demoAccess.read.id]);
      const team = await auth.as(admin).createTeam({ name: 'readers' });
      await auth.as(admin).addTeamMember({ teamId: team.id, applicationId: reader.id });
      await auth.as(admin).updateResourceAccess({
        resourceType: TYPE,
        resourceId: thingA,
        grants: [{ teamId: team.id, access: 'read' }],
      });
      const asReader = auth.as(await reader.principal());
      for (const attempt of [
        () => asReader.addTeamMember({ teamId: team.id, applicationId: reader.id, manager: true }),
        () => asReader.removeTeamMember({ teamId: team.id, applicationId: reader.id }),
        () =>
          asReader.updateResourceAccess({
            resourceType: TYPE,
            resourceId: thingA,
            grants: [{ teamId: team.id, access: 'manage' }],
          }),
      ]) {
        await expect(attempt()).rejects.toMatchObject({
          code: 'FORBIDDEN',
          message: 'Missing access: auth.teams.manage',
        });
      }
    });
  });
});

describe('team access to resources', () => {
  let inside: Principal;
  let outside: Principal;
  let member: Principal;
  let teamId: string;

  beforeAll(async () => {
    const team = await auth.as(admin).createTeam({ name: 'resource-team' });
    teamId = team.id;
    inside = testPrincipal([demoAccess.read], { teamIds: [team.id] });
    member = testPrincipal([], { teamIds: [team.id] });
    outside = testPrincipal([demoAccess.read]);
  });

  const decide = (principal: Principal, id: string, level: 'read' | 'manage' = 'read') =>
    auth.authentication.resources.decide(auth.db, principal, TYPE, id, level);
  const visible = async (principal: Principal, holdsGlobalRule: boolean) =>
    [
      ...(await auth.authentication.resources.visible(
        auth.db,
        principal,
        TYPE,
        [thingA, thingB, thingC],
        'read',
        holdsGlobalRule,
      )),
    ].sort();
  const grant = (resourceId: string, teamOnly: boolean, access: 'read' | 'manage' = 'read') =>
    auth.as(testPrincipal([authAccess.teams])).updateResourceAccess({
      resourceType: TYPE,
      resourceId,
      teamOnly,
      grants: [{ teamId, access }],
    });

  it('leaves a resource without grants to the global rule', async () => {
    await expect(decide(outside, thingC)).resolves.toBe('global');
    await expect(visible(outside, true)).resolves.toContain(thingC);
    await expect(visible(member, false)).resolves.not.toContain(thingC);
  });

  it('adds a grant to the global rule when not team-only', async () => {
    await expect(grant(thingA, false)).resolves.toEqual({
      resourceType: TYPE,
      resourceId: thingA,
      teamOnly: false,
      grants: [{ teamId, access: 'read' }],
    });
    await expect(decide(member, thingA)).resolves.toBe('allow');
    await expect(decide(member, thingA, 'manage')).resolves.toBe('global');
    await expect(decide(outside, thingA)).resolves.toBe('global');
    await expect(visible(member, false)).resolves.toEqual([thingA]);
    await expect(visible(outside, true)).resolves.toEqual([thingA, thingB, thingC]);
  });

  it('lets only the teams (and admins) reach a team-only resource', async () => {
    await grant(thingB, true, 'manage');
    await expect(decide(outside, thingB)).resolves.toBe('deny');
    await expect(decide(inside, thingB, 'manage')).resolves.toBe('allow');
    await expect(decide(admin, thingB)).resolves.toBe('allow');
    await expect(visible(outside, true)).resolves.toEqual([thingA, thingC]);
    await expect(visible(member, false)).resolves.toEqual([thingA, thingB]);
    await expect(visible(admin, true)).resolves.toEqual([thingA, thingB, thingC]);
  });

  it('answers the settings it stores, and forgets a resource cleared of them', async () => {
    const reader = auth.as(testPrincipal([authAccess.teams]));
    await expect(
      reader.getResourceAccess({ resourceType: TYPE, resourceId: thingB }),
    ).resolves.toEqual({
      resourceType: TYPE,
      resourceId: thingB,
      teamOnly: true,
      grants: [{ teamId, access: 'manage' }],
    });
    await reader.updateResourceAccess({ resourceType: TYPE, resourceId: thingB, grants: [] });
    await expect(decide(outside, thingB)).resolves.toBe('global');
  });

  it('drops the grants of a deleted team', async () => {
    const doomed = await auth.as(admin).createTeam({ name: 'doomed' });
    await auth.as(admin).updateResourceAccess({
      resourceType: TYPE,
      resourceId: thingC,
      teamOnly: true,
      grants: [{ teamId: doomed.id, access: 'read' }],
    });
    const inDoomed = testPrincipal([], { teamIds: [doomed.id] });
    await expect(decide(inDoomed, thingC)).resolves.toBe('allow');
    await auth.as(admin).deleteTeam({ id: doomed.id });
    await expect(decide(inDoomed, thingC)).resolves.toBe('deny');
  });

  it('records grant and membership changes in the audit log', async () => {
    const { entries } = await auth
      .as(admin)
      .getAuditLog({ action: 'resource.access_changed', limit: 1 });
    expect(entries[0]).toMatchObject({
      targetType: TYPE,
      targetId: thingC,
      details: { teamOnly: true },
    });
    const { entries: added } = await auth.as(admin).getAuditLog({ action: 'team.member_added' });
    expect(added.length).toBeGreaterThan(0);
  });
});
