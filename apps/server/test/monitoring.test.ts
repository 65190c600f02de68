import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCaller,
  applicationWithRoles,
  monitoringRules,
  type AdminCall,
} from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * An integrator's view of monitoring: an application key, the REST and keyed surfaces, real
 * checks against a real target on loopback, incidents and maintenance windows.
 */
let server: TestServer;
let target: Server;
let targetUrl: string;
let targetStatus = 200;
let asAdmin: AdminCall;
let operator: string;

/** A new application whose only role holds `rules`, and its key. */
async function applicationWith(name: string, rules: string[]) {
  const { createRole } = await asAdmin('auth', {
    createRole: { name: `${name}-role`, accessRules: rules },
  });
  return applicationWithRoles(asAdmin, name, [createRole.id]);
}

const json = async (response: Response) => ({
  status: response.status,
  body: await response.json(),
});

beforeAll(async () => {
  target = createServer((_request, response) => {
    response.writeHead(targetStatus, { 'content-type': 'text/plain' });
    response.end(targetStatus === 200 ? 'all good' : 'broken');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;

  // The test runs its checks itself and flips the target between runs: a scheduled run of the
  // new check, answered before the flip and recorded after it, would undo the status it reads.
  server = await createTestServer({ scheduledChecks: false });
  asAdmin = adminCaller(server, await server.adminSession());
  operator = (await applicationWith('operator', [...monitoringRules])).key;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => target.close(resolve));
});

describe('health checks through an application key', () => {
  it('checks a real target and reports healthy, then unhealthy, over REST and keyed alike', async () => {
    const system = await json(
      await server.rest('POST', 'catalog/createSystem', {
        token: operator,
        body: { name: 'shop' },
      }),
    );
    expect(system.status).toBe(200);
    const check = await json(
      await server.rest('POST', 'healthcheck/createHealthCheck', {
        token: operator,
        body: {
          systemId: system.body.id,
          name: 'shop front',
          type: 'healthcheck.http',
          config: { url: targetUrl },
          intervalSeconds: 30,
          timeoutMs: 2_000,
        },
      }),
    );
    expect(check.status).toBe(200);

    const run = await json(
      await server.rest('POST', 'healthcheck/runHealthCheck', {
        token: operator,
        body: { id: check.body.id },
      }),
    );
    expect(run.body).toMatchObject({ status: 'pass' });
    const healthy = await json(
      await server.rest('GET', 'healthcheck/getSystemHealthStatus', {
        token: operator,
        query: `systemId=${system.body.id}`,
      }),
    );
    expect(healthy.body).toMatchObject({ systemId: system.body.id, status: 'healthy' });

    targetStatus = 500;
    const keyed = await json(
      await server.keyed('healthcheck', { runHealthCheck: { id: check.body.id } }, operator),
    );
    expect(keyed.body.runHealthCheck).toMatchObject({ status: 'fail' });
    targetStatus = 200;

    const bulk = await json(
      await server.rest('POST', 'healthcheck/getBulkSystemHealthStatus', {
        token: operator,
        body: { systemIds: [system.body.id] },
      }),
    );
    expect(bulk.body.statuses).toEqual([
      expect.objectContaining({ systemId: system.body.id, status: 'unhealthy' }),
    ]);
  });

  it('refuses bad intervals, bad URLs and unknown systems with useful errors', async () => {
    const system = (
      await json(await server.keyed('catalog', { createSystem: { name: 'api' } }, operator))
    ).body.createSystem;
    const badInterval = await json(
      await server.keyed(
        'healthcheck',
        {
          createHealthCheck: {
            systemId: system.id,
            name: 'too often',
            type: 'healthcheck.http',
            config: { url: targetUrl },
            intervalSeconds: 1,
          },
        },
        operator,
      ),
    );
    expect(badInterval.status).toBe(400);
    expect(badInterval.body.issues.map((issue: { path: string }) => issue.path)).toContain(
      'intervalSeconds',
    );

    const badUrl = await json(
      await server.rest('POST', 'healthcheck/createHealthCheck', {
        token: operator,
        body: {
          systemId: system.id,
          name: 'ftp',
          type: 'healthcheck.http',
          config: { url: 'ftp://x' },
        },
      }),
    );
    expect(badUrl.status).toBe(400);

    const unknown = '7a3c1d2e-4b5f-4a6b-8c7d-9e0f1a2b3c4d';
    const missing = await json(
      await server.rest('POST', 'healthcheck/createHealthCheck', {
        token: operator,
        body: {
          systemId: unknown,
          name: 'x',
          type: 'healthcheck.http',
          config: { url: targetUrl },
        },
      }),
    );
    expect(missing).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: `System ${unknown} not found` },
    });
  });

  it('shows an application in a team only its team’s systems’ statuses', async () => {
    const { createSystem: mine } = await asAdmin('catalog', {
      createSystem: { name: 'team-mine' },
    });
    const { createSystem: theirs } = await asAdmin('catalog', {
      createSystem: { name: 'team-theirs' },
    });
    const { createTeam: team } = await asAdmin('auth', { createTeam: { name: 'web' } });
    const { createTeam: other } = await asAdmin('auth', { createTeam: { name: 'db' } });
    const watcher = await applicationWith('watcher', ['healthcheck.healthcheck.read']);
    await asAdmin('auth', { addTeamMember: { teamId: team.id, applicationId: watcher.id } });
    for (const [system, owner] of [
      [mine, team],
      [theirs, other],
    ]) {
      await asAdmin('auth', {
        updateResourceAccess: {
          resourceType: 'catalog.system',
          resourceId: system.id,
          teamOnly: true,
          grants: [{ teamId: owner.id, access: 'read' }],
        },
      });
    }

    const bulk = await json(
      await server.rest('POST', 'healthcheck/getBulkSystemHealthStatus', {
        token: watcher.key,
        body: { systemIds: [mine.id, theirs.id] },
      }),
    );
    expect(bulk.body.statuses.map((status: { systemId: string }) => status.systemId)).toEqual([
      mine.id,
    ]);
    const hidden = await server.rest('GET', 'healthcheck/getSystemHealthStatus', {
      token: watcher.key,
      query: `systemId=${theirs.id}`,
    });
    expect(hidden.status).toBe(404);
    const allowed = await server.keyed(
      'healthcheck',
      { getSystemHealthStatus: { systemId: mine.id } },
      watcher.key,
    );
    expect(allowed.status).toBe(200);
  });

  it('refuses a caller without the rule with exactly Missing access: <rule>', async () => {
    const stranger = await applicationWith('stranger', []);
    const response = await json(
      await server.rest('GET', 'healthcheck/getHealthChecks', { token: stranger.key }),
    );
    expect(response).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'Missing access: healthcheck.healthcheck.read' },
    });
  });
});

describe('incidents through an application key', () => {
  it('create, update with a message, resolve, reopen, list and delete over REST with the methods their names give them', async () => {
    const created = await json(
      await server.rest('POST', 'incident/createIncident', {
        token: operator,
        body: { title: 'Checkout errors', severity: 'major' },
      }),
    );
    expect(created).toMatchObject({
      status: 200,
      body: { status: 'investigating', resolvedAt: null },
    });
    const id = created.body.id as string;

    const updated = await json(
      await server.rest('PATCH', 'incident/updateIncident', {
        token: operator,
        body: { id, status: 'identified', message: 'A bad deploy' },
      }),
    );
    expect(updated.body.timeline.at(-1)).toMatchObject({
      status: 'identified',
      message: 'A bad deploy',
    });

    const resolved = await json(
      await server.rest('PATCH', 'incident/updateIncident', {
        token: operator,
        body: { id, status: 'resolved' },
      }),
    );
    expect(resolved.body.resolvedAt).toEqual(expect.any(String));

    const open = await json(
      await server.rest('GET', 'incident/listIncidents', { token: operator }),
    );
    expect(open.body.incidents.map((incident: { id: string }) => incident.id)).not.toContain(id);
    const all = await json(
      await server.rest('GET', 'incident/listIncidents', {
        token: operator,
        query: 'includeResolved=true',
      }),
    );
    expect(all.body.incidents.map((incident: { id: string }) => incident.id)).toContain(id);

    const reopened = await json(
      await server.keyed('incident', { updateIncident: { id, status: 'monitoring' } }, operator),
    );
    expect(reopened.body.updateIncident).toMatchObject({ status: 'monitoring', resolvedAt: null });

    const wrongMethod = await server.rest('POST', 'incident/deleteIncident', {
      token: operator,
      body: { id },
    });
    expect(wrongMethod.status).toBe(405);
    const deleted = await server.rest('DELETE', 'incident/deleteIncident', {
      token: operator,
      body: { id },
    });
    expect(deleted.status).toBe(200);
  });
});

describe('maintenance windows through an application key', () => {
  it('refuses startAt >= endAt and unknown systems, and schedules a valid window', async () => {
    const { createSystem: system } = (
      await json(await server.keyed('catalog', { createSystem: { name: 'billing' } }, operator))
    ).body;
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const backwards = await json(
      await server.keyed(
        'maintenance',
        {
          scheduleWindow: {
            title: 'upgrade',
            systemIds: [system.id],
            startAt: at(2),
            endAt: at(1),
          },
        },
        operator,
      ),
    );
    expect(backwards).toMatchObject({
      status: 400,
      body: { code: 'BAD_REQUEST', procedure: 'scheduleWindow' },
    });

    const scheduled = await json(
      await server.rest('POST', 'maintenance/scheduleWindow', {
        token: operator,
        body: { title: 'upgrade', systemIds: [system.id], startAt: at(1), endAt: at(2) },
      }),
    );
    expect(scheduled.status).toBe(200);
    const listed = await json(
      await server.rest('GET', 'maintenance/getWindows', {
        token: operator,
        query: `systemId=${system.id}`,
      }),
    );
    expect(listed.body.windows.map((window: { id: string }) => window.id)).toEqual([
      scheduled.body.id,
    ]);
  });
});
