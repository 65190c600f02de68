import { describe, expect, it } from 'vitest';
import { authorize } from './authorize.ts';
import type { ProcedureMeta } from './meta.ts';
import type { ResourceAccess, ResourceDecision } from './resource-access.ts';
import { globalRulesOnly } from './resource-access.ts';
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

describe('authorize', () => {
  it('lets a caller holding every rule through', async () => {
    const caller = testPrincipal(['demo.things.read', 'demo.things.audit']);
    await expect(authorize(meta(), caller, {}, globalRulesOnly)).resolves.toEqual({});
  });

  it('names the first missing rule in contract order', async () => {
    await expect(authorize(meta(), testPrincipal([]), {}, globalRulesOnly)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing access: demo.things.read',
    });
    await expect(
      authorize(meta(), testPrincipal(['demo.things.read']), {}, globalRulesOnly),
    ).rejects.toMatchObject({ message: 'Missing access: demo.things.audit' });
  });

  it('answers UNAUTHORIZED, not FORBIDDEN, to an anonymous caller missing a rule', async () => {
    await expect(
      authorize(meta(), anonymousPrincipal(), {}, globalRulesOnly),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('lets anonymous callers through when the anonymous role holds the rules', async () => {
    const open = anonymousPrincipal(['demo.things.read', 'demo.things.audit']);
    await expect(authorize(meta(), open, {}, globalRulesOnly)).resolves.toEqual({});
  });

  it('refuses principal kinds the procedure does not accept', async () => {
    const usersOnly = meta({ principals: ['user'], access: [] });
    await expect(
      authorize(usersOnly, testPrincipal([]), {}, globalRulesOnly),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'This procedure is not available to application callers',
    });
    await expect(
      authorize(usersOnly, anonymousPrincipal(), {}, globalRulesOnly),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('trusts the service principal', async () => {
    await expect(
      authorize(meta(), servicePrincipal('catalog'), {}, globalRulesOnly),
    ).resolves.toEqual({});
  });

  describe('single resources', () => {
    const resourceMeta = meta({
      access: ['demo.things.read'],
      resource: { type: 'demo.thing', idField: 'id', level: 'read' },
    });

    it('fails closed when the id cannot be read from the input', async () => {
      const caller = testPrincipal(['demo.things.read']);
      for (const input of [undefined, null, {}, { id: 42 }, { id: '' }, 'id']) {
        await expect(authorize(resourceMeta, caller, input, globalRulesOnly)).rejects.toMatchObject(
          {
            code: 'FORBIDDEN',
          },
        );
      }
    });

    it('lets a team grant stand in for a missing global rule', async () => {
      await expect(
        authorize(resourceMeta, testPrincipal([]), { id: 'x' }, decidingAlways('allow')),
      ).resolves.toEqual({});
    });

    it('refuses a team-only resource even to a holder of the global rule', async () => {
      await expect(
        authorize(
          resourceMeta,
          testPrincipal(['demo.things.read']),
          { id: 'x' },
          decidingAlways('deny'),
        ),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'This demo.thing is restricted to its teams',
      });
    });

    it('lets the global rule decide a resource without grants', async () => {
      await expect(
        authorize(resourceMeta, testPrincipal([]), { id: 'x' }, decidingAlways('global')),
      ).rejects.toMatchObject({ message: 'Missing access: demo.things.read' });
    });
  });

  describe('lists', () => {
    const listMeta = meta({
      access: ['demo.things.read'],
      resourceList: { type: 'demo.thing', field: 'things', level: 'read' },
    });

    it('refuses a caller with neither the rule nor a team', async () => {
      await expect(
        authorize(listMeta, testPrincipal([]), {}, globalRulesOnly),
      ).rejects.toMatchObject({
        message: 'Missing access: demo.things.read',
      });
    });

    it('lets a team member without the rule list what its teams were granted', async () => {
      const member = testPrincipal([], { teamIds: ['t1'] });
      await expect(authorize(listMeta, member, {}, globalRulesOnly)).resolves.toEqual({
        filterList: { field: 'things', type: 'demo.thing', holdsGlobalRule: false },
      });
    });
  });
});
