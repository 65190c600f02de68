import type { AuthContract } from '@checkline/auth/contract';
import type { CatalogContract } from '@checkline/catalog/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractRouterClient } from '@orpc/contract';
import { contractClient } from './support/contract-client.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

type Contracts = { auth: AuthContract; catalog: CatalogContract };
type Client = ContractRouterClient<Contracts>;

let server: TestServer;
let admin: Client;
let catalogReaders: string;
let systems: { a: string; b: string; c: string };

const clientWith = (headers: Record<string, string>) =>
  contractClient<Contracts>(() => server, headers);

/** A new application holding `roleIds`, with its key. */
async function application(name: string, roleIds: string[] = []) {
  const { application, secret } = await admin.auth.createApplication({ name });
  if (roleIds.length) await admin.auth.updateApplication({ id: application.id, roleIds });
  return { id: application.id, secret, client: clientWith({ authorization: `Bearer ${secret}` }) };
}

const keyedGetSystems = async (secret: string) => {
  const response = await server.keyed('catalog', { getSystems: {} }, secret);
  const body = (await response.json()) as { getSystems: { systems: { name: string }[] } };
  return body.getSystems.systems.map((system) => system.name);
};

beforeAll(async () => {
  server = await createTestServer();
  const { cookie: session } = await server.adminSession();
  admin = clientWith({ cookie: session, origin: testEnv.BASE_URL });
  catalogReaders = (
    await admin.auth.createRole({ name: 'catalog-readers', accessRules: ['catalog.catalog.read'] })
  ).id;
  const [a, b, c] = await Promise.all(
    ['system-a', 'system-b', 'system-c'].map((name) => admin.catalog.createSystem({ name })),
  );
  systems = { a: a!.id, b: b!.id, c: c!.id };
});
afterAll(() => server.close());

describe('team grants on catalog systems', () => {
  it('show an application in a team granted one system that system, and only it', async () => {
    const team = await admin.auth.createTeam({ name: 'payments' });
    const member = await application('payments-bot');
    await admin.auth.addTeamMember({ teamId: team.id, applicationId: member.id });
    await admin.auth.updateResourceAccess({
      resourceType: 'catalog.system',
      resourceId: systems.a,
      grants: [{ teamId: team.id, access: 'read' }],
    });

    await expect(member.client.catalog.getSystems({})).resolves.toMatchObject({
      systems: [{ id: systems.a, name: 'system-a' }],
    });
    expect(await keyedGetSystems(member.secret)).toEqual(['system-a']);
    const rest = await server.rest('GET', 'catalog/getSystems', { token: member.secret });
    expect(((await rest.json()) as { systems: unknown[] }).systems).toHaveLength(1);
    await expect(member.client.catalog.getSystem({ id: systems.a })).resolves.toMatchObject({
      name: 'system-a',
    });
    await expect(member.client.catalog.getSystem({ id: systems.b })).rejects.toMatchObject({
      status: 403,
      message: 'Missing access: catalog.catalog.read',
    });
    await expect(
      member.client.catalog.updateSystem({ id: systems.a, description: 'mine now' }),
    ).rejects.toMatchObject({ status: 403, message: 'Missing access: catalog.catalog.manage' });
    await expect(member.client.auth.getMe({})).resolves.toMatchObject({ teamIds: [team.id] });
  });

  it('hide a team-only system from a holder of the global rule outside the team', async () => {
    const team = await admin.auth.createTeam({ name: 'secret-project' });
    const insider = await application('insider');
    const outsider = await application('outsider', [catalogReaders]);
    await admin.auth.addTeamMember({ teamId: team.id, applicationId: insider.id });
    await admin.auth.updateResourceAccess({
      resourceType: 'catalog.system',
      resourceId: systems.c,
      teamOnly: true,
      grants: [{ teamId: team.id, access: 'manage' }],
    });

    expect(await keyedGetSystems(outsider.secret)).toEqual(['system-a', 'system-b']);
    const refused = await server.keyed(
      'catalog',
      { getSystem: { id: systems.c } },
      outsider.secret,
    );
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: `System ${systems.c} not found`,
    });
    expect(await keyedGetSystems(insider.secret)).toEqual(['system-c']);
    await expect(
      insider.client.catalog.updateSystem({ id: systems.c, description: 'ours' }),
    ).resolves.toMatchObject({ description: 'ours' });
    const everything = await admin.catalog.getSystems({});
    expect(everything.systems.map((system) => system.name)).toEqual([
      'system-a',
      'system-b',
      'system-c',
    ]);
  });

  it('refuse a member with read access that adds anyone to the team, itself included', async () => {
    const team = await admin.auth.createTeam({ name: 'readers-only' });
    const reader = await application('team-reader', [catalogReaders]);
    const stranger = await application('stranger');
    await admin.auth.addTeamMember({ teamId: team.id, applicationId: reader.id });
    await admin.auth.updateResourceAccess({
      resourceType: 'catalog.system',
      resourceId: systems.b,
      grants: [{ teamId: team.id, access: 'read' }],
    });
    for (const applicationId of [reader.id, stranger.id]) {
      const response = await server.keyed(
        'auth',
        { addTeamMember: { teamId: team.id, applicationId, manager: true } },
        reader.secret,
      );
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        message: 'Missing access: auth.teams.manage',
        procedure: 'addTeamMember',
      });
    }
    const { teams } = await admin.auth.getTeams({});
    expect(teams.find((item) => item.id === team.id)!.members).toEqual([
      { kind: 'application', id: reader.id, manager: false },
    ]);
  });

  it('let a team manager add members to that team without auth.teams.manage', async () => {
    const team = await admin.auth.createTeam({ name: 'managed-team' });
    const lead = await application('lead');
    const recruit = await application('recruit');
    await admin.auth.addTeamMember({ teamId: team.id, applicationId: lead.id, manager: true });
    await expect(
      lead.client.auth.addTeamMember({ teamId: team.id, applicationId: recruit.id }),
    ).resolves.toMatchObject({ members: [{ id: lead.id }, { id: recruit.id }] });
    await expect(lead.client.auth.getTeams({})).resolves.toMatchObject({
      teams: [{ id: team.id }],
    });
    const { entries } = await admin.auth.getAuditLog({ action: 'team.member_added', limit: 1 });
    expect(entries[0]).toMatchObject({
      actor: { kind: 'application', id: lead.id },
      targetId: team.id,
      details: { member: { kind: 'application', id: recruit.id } },
    });
  });
});
