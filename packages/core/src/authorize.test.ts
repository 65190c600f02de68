import type { Database } from '@checkline/db';
import { describe, expect, it } from 'vitest';
import type { AccessScope } from './attached-access.ts';
import { authorize } from './authorize.ts';
import type { ProcedureMeta } from './meta.ts';
import type { ResourceAccess, ResourceDecision } from './resource-access.ts';
import { globalRulesOnly } from './resource-access.ts';
import type { Principal } from './principal.ts';
import { anonymousPrincipal, servicePrincipal } from './principal.ts';
import { testPrincipal } from './testing.ts';

const meta = (overrides: Partial<ProcedureMeta> = {}): ProcedureMeta => ({
  kind: 'query',
  principals: ['user', 'application', 'service', 'anonymous'],
  access: ['demo.things.read', 'demo.things.audit'],
  ...overrides,
});

const decidingAlways = (decision: ResourceDecision): ResourceAccess => ({
  ...globalRulesOnly,
  decide: async () => decision,
});

/** No lookup here reaches the database: the resource access given decides. */
const scope = (principal: Principal, resources: ResourceAccess = globalRulesOnly): AccessScope => ({
  principal,
  resources,
  db: {} as Database,
});

describe('authorize', () => {
  it('lets a caller holding every rule through', async () => {
    const caller = testPrincipal(['demo.things.read', 'demo.things.audit']);
    await expect(authorize(meta(), scope(caller), {})).resolves.toEqual({});
  });

  it('names the first missing rule in contract order', async () => {
    await expect(authorize(meta(), scope(testPrincipal([])), {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: demo.things.read',
    });
    await expect(
      authorize(meta(), scope(testPrincipal(['demo.things.read'])), {}),
    ).rejects.toMatchObject({ message: 'Missing access: demo.things.audit' });
  });

  it('answers UNAUTHORIZED, not FORBIDDEN, to an anonymous caller missing a rule', async () => {
    await expect(authorize(meta(), scope(anonymousPrincipal()), {})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('lets anonymous callers through when the anonymous role holds the rules', async () => {
    const open = anonymousPrincipal(['demo.things.read', 'demo.things.audit']);
    await expect(authorize(meta(), scope(open), {})).resolves.toEqual({});
  });

  it('refuses principal kinds the procedure does not accept', async () => {
    const usersOnly = meta({ principals: ['user'], access: [] });
    await expect(authorize(usersOnly, scope(testPrincipal([])), {})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'This procedure is not available to application callers',
    });
    await expect(authorize(usersOnly, scope(anonymousPrincipal()), {})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('trusts the service principal', async () => {
    await expect(authorize(meta(), scope(servicePrincipal('catalog')), {})).resolves.toEqual({});
  });

  describe('single resources', () => {
    const resourceMeta = meta({
      access: ['demo.things.read'],
      resource: { type: 'demo.thing', idField: 'id', level: 'read' },
    });

    it('fails closed when the id cannot be read from the input', async () => {
      const caller = testPrincipal(['demo.things.read']);
      for (const input of [undefined, null, {}, { id: 42 }, { id: '' }, 'id']) {
        await expect(authorize(resourceMeta, scope(caller), input)).rejects.toMatchObject({
          code: 'FORBIDDEN',
        });
      }
    });

    const member = (rules: string[] = []) => testPrincipal(rules, { teamIds: ['t1'] });

    it('lets a team grant stand in for a missing global rule', async () => {
      await expect(
        authorize(resourceMeta, scope(member(), decidingAlways('allow')), { id: 'x' }),
      ).resolves.toEqual({});
    });

    it('answers a team-only resource the caller may not see as a missing one', async () => {
      const labelled = meta({
        access: ['demo.things.read'],
        resource: { type: 'demo.thing', label: 'Thing', idField: 'id', level: 'read' },
      });
      await expect(
        authorize(labelled, scope(member(['demo.things.read']), decidingAlways('deny')), {
          id: 'x',
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Thing x not found' });
      await expect(
        authorize(labelled, scope(member(), decidingAlways('deny')), { id: 'x' }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'Missing access: demo.things.read' });
    });

    it('refuses a change to a team-only resource the caller may only read', async () => {
      const change = meta({
        kind: 'mutation',
        access: ['demo.things.manage'],
        resource: { type: 'demo.thing', idField: 'id', level: 'manage' },
      });
      const readOnly: ResourceAccess = {
        ...globalRulesOnly,
        decide: async (_db, _principal, _type, _id, level) => (level === 'read' ? 'allow' : 'deny'),
      };
      await expect(
        authorize(change, scope(member(['demo.things.manage']), readOnly), { id: 'x' }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'This demo.thing is restricted to its teams',
      });
    });

    it('lets the global rule decide a resource without grants', async () => {
      await expect(
        authorize(resourceMeta, scope(member(), decidingAlways('global')), { id: 'x' }),
      ).rejects.toMatchObject({ message: 'Missing access: demo.things.read' });
    });
  });

  describe('resources named by the input of another plugin', () => {
    const attachMeta = meta({
      kind: 'mutation',
      access: ['other.things.manage'],
      attachedTo: {
        type: 'demo.thing',
        label: 'Thing',
        fields: ['thingId', 'thingIds'],
        level: 'manage',
      },
    });
    const hiding = (hidden: string[], locked: string[]): ResourceAccess => ({
      ...globalRulesOnly,
      decide: async () => 'allow',
      restricted: async (_db, _principal, _type, level) =>
        new Set(level === 'read' ? hidden : locked),
    });
    const holder = testPrincipal(['other.things.manage'], { teamIds: ['t1'] });

    it('never lets a team grant stand in for the procedure’s own rules', async () => {
      await expect(
        authorize(attachMeta, scope(testPrincipal([], { teamIds: ['t1'] }), hiding([], [])), {
          thingId: 'a',
        }),
      ).rejects.toMatchObject({ message: 'Missing access: other.things.manage' });
    });

    it('answers NOT_FOUND for a hidden one and FORBIDDEN for one seen but not changeable', async () => {
      await expect(
        authorize(attachMeta, scope(holder, hiding(['b'], ['b'])), { thingIds: ['a', 'b'] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Thing b not found' });
      await expect(
        authorize(attachMeta, scope(holder, hiding([], ['a'])), { thingId: 'a' }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(
        authorize(attachMeta, scope(holder, hiding(['z'], ['z'])), { thingId: 'a' }),
      ).resolves.toEqual({});
    });
  });

  describe('lists', () => {
    const listMeta = meta({
      access: ['demo.things.read'],
      resourceList: { type: 'demo.thing', field: 'things', level: 'read' },
    });

    it('refuses a caller with neither the rule nor a team', async () => {
      await expect(authorize(listMeta, scope(testPrincipal([])), {})).rejects.toMatchObject({
        message: 'Missing access: demo.things.read',
      });
    });

    it('lets a team member without the rule list what its teams were granted', async () => {
      const member = testPrincipal([], { teamIds: ['t1'] });
      await expect(authorize(listMeta, scope(member), {})).resolves.toEqual({
        filterList: { field: 'things', type: 'demo.thing', holdsGlobalRule: false },
      });
    });
  });
});
