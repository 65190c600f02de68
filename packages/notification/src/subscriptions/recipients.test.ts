import { describe, expect, it } from 'vitest';
import type { SubscriptionTarget } from './recipients.ts';
import { groupBySystems, holdsRule, principalOf, systemsBySubscriber } from './recipients.ts';

const [ana, ben, cleo] = ['user-ana', 'user-ben', 'user-cleo'];
const [api, db, web] = ['system-api', 'system-db', 'system-web'];
const groups = new Map([
  [api, new Set(['group-core'])],
  [db, new Set(['group-core', 'group-data'])],
]);

const subscription = (userId: string, target: Partial<SubscriptionTarget>): SubscriptionTarget => ({
  recipientId: userId,
  systemId: null,
  groupId: null,
  ...target,
});

describe('systemsBySubscriber works', () => {
  it('reaches a system through a subscription to it, to a group holding it, or to everything', () => {
    const reached = systemsBySubscriber(
      [
        subscription(ana, { systemId: api }),
        subscription(ben, { groupId: 'group-data' }),
        subscription(cleo, {}),
      ],
      [api, db, web],
      groups,
    );
    expect(reached).toEqual(
      new Map([
        [ana, new Set([api])],
        [ben, new Set([db])],
        [cleo, new Set([api, db, web])],
      ]),
    );
  });

  it('joins several subscriptions of one user and leaves out those reaching nothing concerned', () => {
    const reached = systemsBySubscriber(
      [
        subscription(ana, { systemId: api }),
        subscription(ana, { groupId: 'group-core' }),
        subscription(ben, { systemId: web }),
        subscription(cleo, { groupId: 'group-other' }),
      ],
      [api, db],
      groups,
    );
    expect(reached).toEqual(new Map([[ana, new Set([api, db])]]));
  });

  it('reaches only the subscribers to everything with an event concerning no system', () => {
    const reached = systemsBySubscriber(
      [subscription(ana, { systemId: api }), subscription(cleo, {})],
      [],
      groups,
    );
    expect(reached).toEqual(new Map([[cleo, new Set()]]));
  });
});

describe('principalOf and holdsRule work', () => {
  it('makes the user principal from a profile; admins hold every rule', () => {
    const profile = {
      id: ana,
      accessRules: ['incident.incident.read'],
      teamIds: ['t'],
      isAdmin: false,
    };
    const principal = principalOf(profile);
    expect(principal).toEqual({
      kind: 'user',
      id: ana,
      accessRules: ['incident.incident.read'],
      teamIds: ['t'],
      isAdmin: false,
    });
    expect(holdsRule(principal, 'incident.incident.read')).toBe(true);
    expect(holdsRule(principal, 'catalog.catalog.read')).toBe(false);
    expect(
      holdsRule({ ...principal, accessRules: [], isAdmin: true }, 'catalog.catalog.read'),
    ).toBe(true);
  });
});

describe('groupBySystems works', () => {
  it('puts users reaching the same systems in one group', () => {
    const grouped = groupBySystems(
      new Map([
        [ana, [db, api]],
        [ben, [api, db]],
        [cleo, [web]],
        ['user-unattached', []],
      ]),
    );
    expect(grouped).toEqual([
      { systemIds: [api, db], userIds: [ana, ben] },
      { systemIds: [web], userIds: [cleo] },
      { systemIds: [], userIds: ['user-unattached'] },
    ]);
  });
});
