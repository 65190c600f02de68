import { testPrincipal } from '@checkline/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateResourceAccess } from './resource-grants.ts';
import type { TeamAccess } from './team-access.ts';
import { createTeam } from './teams.ts';
import type { AuthTestKit } from './test-support.ts';
import { startAuth } from './test-support.ts';

let auth: AuthTestKit;
let teamId: string;
const TYPE = 'demo.thing';
const outsider = testPrincipal(['demo.demo.read']);

class RolledBack extends Error {}

beforeAll(async () => {
  // Grants kept for a minute: only invalidation or a fresh read changes what checks see.
  auth = await startAuth({ cache: { grantsTtlSeconds: 60 } });
  teamId = (await createTeam(auth.db, { name: 'owners' })).id;
});
afterAll(() => auth.close());

/** Drops the kept grants, as a grant change through the router does. */
const invalidate = () => (auth.authentication.resources as TeamAccess).invalidate(TYPE);

const restricted = (db = auth.db) =>
  auth.authentication.resources.restricted(db, outsider, TYPE, 'read');

describe('team access inside a transaction', () => {
  it('reads the transaction’s own grants and keeps none of them after a rollback', async () => {
    // Keeps "no grants" for demo.thing, read from the root database.
    await expect(restricted()).resolves.toEqual(new Set());
    const seenInside = await auth.db
      .transaction(async (tx) => {
        await updateResourceAccess(tx, {
          resourceType: TYPE,
          resourceId: 'thing-2',
          teamOnly: true,
          grants: [{ teamId, access: 'manage' }],
        });
        // The next check reads through `tx`: nothing kept holds the new grant.
        invalidate();
        const inside = await restricted(tx);
        throw new RolledBack([...inside].join());
      })
      .catch((error: unknown) => (error instanceof RolledBack ? error.message : error));
    expect(seenInside).toBe('thing-2');
    await expect(restricted()).resolves.toEqual(new Set());
  });

  it('hides team-only resources from callers outside their teams, never from admins', async () => {
    await updateResourceAccess(auth.db, {
      resourceType: TYPE,
      resourceId: 'thing-3',
      teamOnly: true,
      grants: [{ teamId, access: 'read' }],
    });
    invalidate();
    const resources = auth.authentication.resources;
    const member = testPrincipal([], { teamIds: [teamId] });
    const admin = testPrincipal([], { isAdmin: true });
    await expect(resources.restricted(auth.db, outsider, TYPE, 'read')).resolves.toEqual(
      new Set(['thing-3']),
    );
    await expect(resources.restricted(auth.db, member, TYPE, 'read')).resolves.toEqual(new Set());
    await expect(resources.restricted(auth.db, member, TYPE, 'manage')).resolves.toEqual(
      new Set(['thing-3']),
    );
    await expect(resources.restricted(auth.db, admin, TYPE, 'manage')).resolves.toEqual(new Set());
  });
});
