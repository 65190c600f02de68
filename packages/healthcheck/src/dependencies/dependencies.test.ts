import type { DatabaseHandle } from '@checkline/db';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { systemDependencies, systemStatuses } from '../db/schema.ts';
import type { HealthcheckHarness } from '../testing/harness.ts';
import { manager, nobody, reader, testClock } from '../testing/harness.ts';
import { useHealthcheckSuite } from '../testing/suite.ts';
import type { HttpTarget } from '../testing/targets.ts';

let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();
const unknownId = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';

useHealthcheckSuite((suite) => ({ database, h, target } = suite), { now: clock.now });
beforeEach(async () => {
  await database.db.delete(systemDependencies);
});

/** A system with one http check on its own path of the target; `setHealth` flips the answer. */
async function monitoredSystem(name: string) {
  const system = await h.createSystem(`${name}-${Math.random().toString(36).slice(2)}`);
  const path = `/${system.id}`;
  const check = await h.as(manager).createHealthCheck({
    systemId: system.id,
    name: 'front',
    type: 'healthcheck.http',
    config: { url: target.url(path) },
  });
  return {
    id: system.id,
    /** Makes the target answer as `healthy` says and runs the check once. */
    async run(healthy: boolean) {
      target.respond(path, { status: healthy ? 200 : 500 });
      clock.advance(1_000);
      await h.as(manager).runHealthCheck({ id: check.id });
    },
  };
}

/** The status changes announced for a system so far, once every event is delivered. */
const changesOf = async (systemId: string) => {
  await h.runtime.events.settled();
  return h.changes
    .filter((change) => change.systemId === systemId)
    .map(({ previous, current, causedBy }) => ({ previous, current, causedBy }));
};

describe('system dependencies', () => {
  describe('works', () => {
    it('sets, replaces and reads the systems a system depends on', async () => {
      const [app, db, cache] = [
        await h.createSystem(),
        await h.createSystem(),
        await h.createSystem(),
      ];
      await expect(
        h
          .as(manager)
          .setSystemDependencies({ systemId: app.id, dependsOn: [db.id, cache.id, db.id] }),
      ).resolves.toEqual({ systemId: app.id, dependsOn: [db.id, cache.id].sort() });
      await expect(h.as(reader).getSystemDependencies({ systemId: app.id })).resolves.toEqual({
        systemId: app.id,
        dependsOn: [db.id, cache.id].sort(),
      });
      await h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: [cache.id] });
      await expect(h.as(reader).getSystemDependencies({ systemId: app.id })).resolves.toEqual({
        systemId: app.id,
        dependsOn: [cache.id],
      });
      await h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: [] });
      expect((await h.as(reader).getSystemDependencies({ systemId: app.id })).dependsOn).toEqual(
        [],
      );
    });

    it('marks the changes of a system as caused by its unhealthy dependency, and its recovery too', async () => {
      const router = await monitoredSystem('router');
      const app = await monitoredSystem('app');
      await h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: [router.id] });
      await router.run(true);
      await app.run(true);
      await router.run(false);
      await app.run(false);
      await router.run(true);
      await app.run(true);
      expect(await changesOf(router.id)).toEqual([
        { previous: 'unknown', current: 'healthy', causedBy: undefined },
        { previous: 'healthy', current: 'unhealthy', causedBy: undefined },
        { previous: 'unhealthy', current: 'healthy', causedBy: undefined },
      ]);
      expect(await changesOf(app.id)).toEqual([
        { previous: 'unknown', current: 'healthy', causedBy: undefined },
        { previous: 'healthy', current: 'unhealthy', causedBy: { systemId: router.id } },
        { previous: 'unhealthy', current: 'healthy', causedBy: { systemId: router.id } },
      ]);
      // Its own outage, while the router is healthy, is its own.
      await app.run(false);
      expect((await changesOf(app.id)).at(-1)).toEqual({
        previous: 'healthy',
        current: 'unhealthy',
        causedBy: undefined,
      });
    });

    it('records the cause with the stored status while the dependency is unhealthy', async () => {
      const router = await monitoredSystem('router');
      const app = await monitoredSystem('app');
      await h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: [router.id] });
      await router.run(false);
      await app.run(false);
      const [stored] = await database.db
        .select()
        .from(systemStatuses)
        .where(eq(systemStatuses.systemId, app.id));
      expect(stored).toMatchObject({ status: 'unhealthy', causedBySystemId: router.id });
    });

    it('forgets the dependencies of and on a deleted system', async () => {
      const [app, db] = [await h.createSystem(), await h.createSystem()];
      await h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: [db.id] });
      await h.catalog().deleteSystem({ id: db.id });
      await h.runtime.events.settled();
      expect((await h.as(reader).getSystemDependencies({ systemId: app.id })).dependsOn).toEqual(
        [],
      );
    });
  });

  describe('refuses cycles', () => {
    it('refuses a system depending on itself or closing a cycle, naming it', async () => {
      const [a, b, c] = [await h.createSystem(), await h.createSystem(), await h.createSystem()];
      await expect(
        h.as(manager).setSystemDependencies({ systemId: a.id, dependsOn: [a.id] }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: `Dependency cycle: ${a.id} → ${a.id}`,
        data: { issues: [{ path: 'dependsOn' }] },
      });
      await h.as(manager).setSystemDependencies({ systemId: a.id, dependsOn: [b.id] });
      await h.as(manager).setSystemDependencies({ systemId: b.id, dependsOn: [c.id] });
      await expect(
        h.as(manager).setSystemDependencies({ systemId: c.id, dependsOn: [a.id] }),
      ).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: `Dependency cycle: ${c.id} → ${a.id} → ${b.id} → ${c.id}`,
      });
      expect((await h.as(reader).getSystemDependencies({ systemId: c.id })).dependsOn).toEqual([]);
    });
  });

  describe('refuses the wrong caller', () => {
    it('lets only a manager set them and a reader read them', async () => {
      const [app, db] = [await h.createSystem(), await h.createSystem()];
      await expect(
        h.as(reader).setSystemDependencies({ systemId: app.id, dependsOn: [db.id] }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(h.as(nobody).getSystemDependencies({ systemId: app.id })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    });
  });

  describe('rejects bad input', () => {
    it('answers NOT_FOUND for a system the catalog does not know', async () => {
      const app = await h.createSystem();
      await expect(
        h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: [unknownId] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${unknownId} not found` });
      await expect(
        h.as(manager).setSystemDependencies({ systemId: unknownId, dependsOn: [] }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(
        h.as(manager).setSystemDependencies({ systemId: app.id, dependsOn: ['not-a-uuid'] }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    });
  });
});
