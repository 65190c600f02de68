import type { Principal, RequestContext, ResourceAccess } from '@checkline/core';
import { testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { eventOutbox } from '@checkline/db';
import { maintenanceContract } from '@checkline/maintenance/contract';
import { createRouterClient } from '@orpc/server';
import type { ContractRouterClient } from '@orpc/contract';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { healthcheckAccess } from './access.ts';
import type { HealthcheckContract } from './contract.ts';
import { results, systemStatuses } from './db/schema.ts';
import type { HealthcheckHarness } from './testing/harness.ts';
import { admin, anonymous, manager, nobody, reader, testClock } from './testing/harness.ts';
import { useHealthcheckSuite } from './testing/suite.ts';
import type { HttpTarget } from './testing/targets.ts';

let database: DatabaseHandle;
let h: HealthcheckHarness;
let target: HttpTarget;
const clock = testClock();
const unknownId = '5b0a4a4e-8a35-4a0c-9d8e-2f4f8e8c1a11';

/** Systems restricted to the team `team-a` (team-only), as the auth plugin would decide. */
const teamOnly = new Set<string>();
const inTeam = (principal: Principal) => principal.teamIds.includes('team-a');
const teamAccess: ResourceAccess = {
  decide: async (_db, principal, _type, id) =>
    teamOnly.has(id) ? (inTeam(principal) ? 'allow' : 'deny') : 'global',
  visible: async (_db, principal, _type, ids, _level, holdsGlobalRule) =>
    new Set(ids.filter((id) => (teamOnly.has(id) ? inTeam(principal) : holdsGlobalRule))),
  restricted: async (_db, principal) => new Set(inTeam(principal) ? [] : teamOnly),
};

useHealthcheckSuite((suite) => ({ database, h, target } = suite), {
  now: clock.now,
  resources: teamAccess,
});
beforeEach(() => {
  teamOnly.clear();
});

/**
 * Answering checks get a timeout no loaded machine reaches (the first request of a process also
 * sets up the HTTP client); only a target that never answers is given the short one, so a timeout
 * here always means the target hung, never that the test machine was slow.
 */
const answeringTimeoutMs = 10_000;
const hangingTimeoutMs = 300;

let pathCount = 0;
/** A system with one http check per entry, each on its own path of the target. */
async function systemWithChecks(count: number) {
  const system = await h.createSystem();
  const checks = [];
  for (let i = 0; i < count; i += 1) {
    const path = `/status-${(pathCount += 1)}`;
    target.respond(path, { status: 200 });
    const check = await h.as(manager).createHealthCheck({
      systemId: system.id,
      name: `check ${i}`,
      type: 'healthcheck.http',
      config: { url: target.url(path) },
      timeoutMs: answeringTimeoutMs,
    });
    checks.push({ ...check, path });
  }
  return { system, checks };
}

async function run(check: { id: string }) {
  clock.advance(1_000);
  await h.as(manager).runHealthCheck({ id: check.id });
  await h.runtime.events.settled();
}

const transitions = () => h.changes.map((change) => `${change.previous}->${change.current}`);

describe('status changes', () => {
  it('walks healthy, degraded, unhealthy and back with exactly one event per transition', async () => {
    const { system, checks } = await systemWithChecks(2);
    const [a, b] = checks as [(typeof checks)[0], (typeof checks)[0]];
    await run(a);
    await run(b);
    await run(a);
    expect(transitions()).toEqual(['unknown->healthy']);
    target.respond(b.path, { status: 500 });
    await run(b);
    await run(b);
    await run(a);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->degraded']);
    target.respond(a.path, { hang: true });
    await h.as(manager).updateHealthCheck({ id: a.id, timeoutMs: hangingTimeoutMs });
    await run(a);
    await run(b);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->degraded', 'degraded->unhealthy']);
    target.respond(a.path, { status: 200 });
    target.respond(b.path, { status: 200 });
    await h.as(manager).updateHealthCheck({ id: a.id, timeoutMs: answeringTimeoutMs });
    await run(a);
    await run(b);
    await run(b);
    expect(transitions()).toEqual([
      'unknown->healthy',
      'healthy->degraded',
      'degraded->unhealthy',
      'unhealthy->degraded',
      'degraded->healthy',
    ]);
    expect(h.changes.every((change) => change.systemId === system.id)).toBe(true);
    // The last run changed nothing; the one before it brought the system back.
    expect(h.changes.at(-1)?.at).toBe(new Date(clock.now().getTime() - 1_000).toISOString());
  });

  it('goes from unhealthy straight to healthy when the only check recovers', async () => {
    const { checks } = await systemWithChecks(1);
    const [only] = checks as [(typeof checks)[0]];
    await run(only);
    target.respond(only.path, { status: 503 });
    await run(only);
    target.respond(only.path, { status: 200 });
    await run(only);
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->unhealthy', 'unhealthy->healthy']);
  });

  it('tells with each change which checks fail and why, and since when the previous status held', async () => {
    const { checks } = await systemWithChecks(2);
    const [a, b] = checks as [(typeof checks)[0], (typeof checks)[0]];
    await run(a);
    const healthySince = clock.now().toISOString();
    target.respond(b.path, { status: 503 });
    await run(b);
    const [first, degraded] = h.changes;
    // The first status has nothing before it to measure from.
    expect(first?.previousSince).toBeUndefined();
    expect(first?.failingChecks).toEqual([]);
    expect(degraded).toMatchObject({ previous: 'healthy', current: 'degraded' });
    expect(degraded?.previousSince).toBe(healthySince);
    expect(degraded?.failingChecks).toEqual([
      {
        healthCheckId: b.id,
        name: b.name,
        type: 'healthcheck.http',
        status: 'fail',
        message: 'Expected status 2xx, got 503',
        latencyMs: expect.any(Number),
        checkedAt: clock.now().toISOString(),
      },
    ]);
    const degradedSince = clock.now().toISOString();
    target.respond(b.path, { status: 200 });
    await run(b);
    expect(h.changes.at(-1)).toMatchObject({
      previous: 'degraded',
      current: 'healthy',
      previousSince: degradedSince,
      failingChecks: [],
    });
  });

  it('announces the change when deleting a check changes the status', async () => {
    const { checks } = await systemWithChecks(2);
    const [a, b] = checks as [(typeof checks)[0], (typeof checks)[0]];
    target.respond(b.path, { status: 500 });
    await run(a);
    await run(b);
    await h.as(manager).deleteHealthCheck({ id: b.id });
    await h.runtime.events.settled();
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->degraded', 'degraded->healthy']);
  });

  it('writes the status change to the outbox with its result and dispatches it after commit', async () => {
    const { system, checks } = await systemWithChecks(1);
    await h.as(manager).runHealthCheck({ id: checks[0]!.id });
    await h.runtime.events.settled();
    expect(h.changes).toMatchObject([
      { systemId: system.id, previous: 'unknown', current: 'healthy' },
    ]);
    const written = await database.db
      .select()
      .from(eventOutbox)
      .where(eq(eventOutbox.type, 'healthcheck.status_changed'));
    const mine = written.filter(
      (row) => (row.payload as { systemId: string }).systemId === system.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]!.dispatchedAt).not.toBeNull();
  });

  it('leaves neither result nor status behind when the surrounding transaction rolls back', async () => {
    const { system, checks } = await systemWithChecks(1);
    const queued: unknown[] = [];
    const rollback = new Error('rollback');
    await expect(
      database.db.transaction(async (tx) => {
        const context: RequestContext = {
          ...h.runtime.contextFor(manager),
          db: tx,
          inTransaction: true,
          emit: (_type, payload) => void queued.push(payload),
        };
        const client = createRouterClient(h.runtime.router.healthcheck, {
          context,
        }) as unknown as ContractRouterClient<HealthcheckContract>;
        await client.runHealthCheck({ id: checks[0]!.id });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await database.db.select().from(results)).toEqual([]);
    expect(
      await database.db.select().from(systemStatuses).where(eq(systemStatuses.systemId, system.id)),
    ).toEqual([]);
  });
});

describe('maintenance', () => {
  const maintenance = () => h.client('maintenance', maintenanceContract, admin);
  const activeWindow = (systemIds: string[]) => {
    const now = Date.now();
    return maintenance().scheduleWindow({
      title: 'upgrade',
      systemIds,
      startAt: new Date(now - 60_000).toISOString(),
      endAt: new Date(now + 3_600_000).toISOString(),
    });
  };

  it('reports maintenance while a window covers the system, whatever the results', async () => {
    const { system, checks } = await systemWithChecks(1);
    await run(checks[0]!);
    const window = await activeWindow([system.id]);
    await expect(
      h.as(reader).getSystemHealthStatus({ systemId: system.id }),
    ).resolves.toMatchObject({
      status: 'maintenance',
    });
    await maintenance().deleteWindow({ id: window.id });
    await expect(
      h.as(reader).getSystemHealthStatus({ systemId: system.id }),
    ).resolves.toMatchObject({
      status: 'healthy',
    });
  });

  it('announces maintenance starting and ending as status changes', async () => {
    const { system, checks } = await systemWithChecks(1);
    await run(checks[0]!);
    const window = await activeWindow([system.id]);
    await h.maintenance.tick(new Date());
    await h.runtime.events.settled();
    expect(transitions()).toEqual(['unknown->healthy', 'healthy->maintenance']);
    await run(checks[0]!);
    expect(transitions()).toHaveLength(2);
    // Ended by time, announced by the maintenance ticker once its transaction committed.
    await maintenance().updateWindow({
      id: window.id,
      endAt: new Date(Date.now() - 1).toISOString(),
    });
    await h.maintenance.tick(new Date());
    await h.runtime.events.settled();
    expect(transitions()).toEqual([
      'unknown->healthy',
      'healthy->maintenance',
      'maintenance->healthy',
    ]);
  });
});

describe('getSystemHealthStatus', () => {
  describe('works', () => {
    it('is unknown for a system without results and lists its checks', async () => {
      const { system, checks } = await systemWithChecks(2);
      await expect(h.as(reader).getSystemHealthStatus({ systemId: system.id })).resolves.toEqual({
        systemId: system.id,
        status: 'unknown',
        checks: checks.map((check) => ({
          healthCheckId: check.id,
          name: check.name,
          alertStatus: null,
          latest: null,
          late: false,
        })),
      });
    });

    it('gives the latest result of each check', async () => {
      const { system, checks } = await systemWithChecks(2);
      const [a, b] = checks as [(typeof checks)[0], (typeof checks)[0]];
      await run(a);
      target.respond(a.path, { status: 500 });
      await run(a);
      const status = await h.as(reader).getSystemHealthStatus({ systemId: system.id });
      expect(status).toMatchObject({
        status: 'unhealthy',
        checks: [
          { healthCheckId: a.id, latest: { status: 'fail', checkedAt: clock.now().toISOString() } },
          { healthCheckId: b.id, latest: null },
        ],
      });
    });
  });

  it('rejects bad input: unknown systems and ids that are no uuid', async () => {
    await expect(h.as(reader).getSystemHealthStatus({ systemId: unknownId })).rejects.toMatchObject(
      {
        code: 'NOT_FOUND',
      },
    );
    await expect(h.as(reader).getSystemHealthStatus({ systemId: 'x' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('refuses the wrong caller: no read rule, anonymous, outside a team-only system', async () => {
    const { system } = await systemWithChecks(1);
    await expect(h.as(nobody).getSystemHealthStatus({ systemId: system.id })).rejects.toMatchObject(
      {
        code: 'FORBIDDEN',
        message: 'Missing access: healthcheck.healthcheck.read',
      },
    );
    await expect(
      h.as(anonymous).getSystemHealthStatus({ systemId: system.id }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    teamOnly.add(system.id);
    await expect(h.as(reader).getSystemHealthStatus({ systemId: system.id })).rejects.toMatchObject(
      { code: 'NOT_FOUND', message: `System ${system.id} not found` },
    );
    const member = testPrincipal([healthcheckAccess.read], { teamIds: ['team-a'] });
    await expect(
      h.as(member).getSystemHealthStatus({ systemId: system.id }),
    ).resolves.toMatchObject({
      systemId: system.id,
    });
    const memberWithoutRule = testPrincipal([], { teamIds: ['team-a'] });
    await expect(
      h.as(memberWithoutRule).getSystemHealthStatus({ systemId: system.id }),
    ).rejects.toMatchObject({ message: 'Missing access: healthcheck.healthcheck.read' });
  });
});

describe('getBulkSystemHealthStatus', () => {
  it('works: answers each system once, in the order asked, leaving out missing ones', async () => {
    const healthy = await systemWithChecks(1);
    const silent = await systemWithChecks(0);
    await run(healthy.checks[0]!);
    const { statuses } = await h.as(reader).getBulkSystemHealthStatus({
      systemIds: [silent.system.id, healthy.system.id, silent.system.id, unknownId],
    });
    expect(statuses.map((status) => [status.systemId, status.status])).toEqual([
      [silent.system.id, 'unknown'],
      [healthy.system.id, 'healthy'],
    ]);
  });

  it('rejects bad input: more than 500 systems, ids that are no uuid', async () => {
    const systemIds = Array.from({ length: 501 }, () => unknownId);
    await expect(h.as(reader).getBulkSystemHealthStatus({ systemIds })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      h.as(reader).getBulkSystemHealthStatus({ systemIds: ['x'] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('refuses the wrong caller and leaves out systems the caller may not see', async () => {
    await expect(
      h.as(nobody).getBulkSystemHealthStatus({ systemIds: [unknownId] }),
    ).rejects.toMatchObject({ message: 'Missing access: healthcheck.healthcheck.read' });
    const open = await systemWithChecks(1);
    const hidden = await systemWithChecks(1);
    teamOnly.add(hidden.system.id);
    const systemIds = [open.system.id, hidden.system.id];
    const seenByReader = await h.as(reader).getBulkSystemHealthStatus({ systemIds });
    expect(seenByReader.statuses.map((status) => status.systemId)).toEqual([open.system.id]);
    const teamReader = testPrincipal([healthcheckAccess.read], { teamIds: ['team-a'] });
    const seenByTeam = await h.as(teamReader).getBulkSystemHealthStatus({ systemIds });
    expect(seenByTeam.statuses.map((status) => status.systemId)).toEqual(systemIds);
  });
});

describe('team-only systems', () => {
  it('hide their checks, history and runs outside the team, as if they did not exist', async () => {
    const { system, checks } = await systemWithChecks(1);
    const check = checks[0]!;
    teamOnly.add(system.id);
    const all = await h.as(manager).getHealthChecks({});
    expect(all.healthChecks).toEqual([]);
    const restricted = { code: 'NOT_FOUND', message: `Health check ${check.id} not found` };
    await expect(h.as(reader).getHistory({ healthCheckId: check.id })).rejects.toMatchObject(
      restricted,
    );
    await expect(h.as(manager).runHealthCheck({ id: check.id })).rejects.toMatchObject(restricted);
    await expect(h.as(manager).deleteHealthCheck({ id: check.id })).rejects.toMatchObject(
      restricted,
    );
    await expect(
      h.as(manager).createHealthCheck({
        systemId: system.id,
        name: 'more',
        type: 'healthcheck.http',
        config: { url: target.url('/') },
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `System ${system.id} not found` });
    const teamManager = testPrincipal([healthcheckAccess.read, healthcheckAccess.manage], {
      teamIds: ['team-a'],
    });
    await expect(h.as(teamManager).runHealthCheck({ id: check.id })).resolves.toMatchObject({
      status: 'pass',
    });
  });
});
