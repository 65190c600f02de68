import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterAdmin, clusterAdminSession, clusterPerFile } from './support/cluster.ts';
import { withinOneSecond } from './support/within-one-second.ts';

/*
 * Three server processes on one PostgreSQL database behind the round-robin proxy (`pnpm
 * cluster`): what one process changes, the others honour within a second.
 */
// The health checks' target listens on loopback, which the cluster's policy allows.
const shared = clusterPerFile({ size: 3 });
let session: Record<string, string>;

beforeAll(async () => {
  session = await clusterAdminSession(shared.cluster);
});

/** A keyed call to one process (`baseUrl`), with the given credentials. */
async function call(baseUrl: string, pluginId: string, body: unknown, headers: object) {
  const response = await fetch(`${baseUrl}/api/${pluginId}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** An admin call through the process `baseUrl`; throws unless it succeeds. */
async function asAdminOn(baseUrl: string, pluginId: string, body: unknown) {
  const answer = await call(baseUrl, pluginId, body, session);
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
  return answer.body;
}

async function roleWith(accessRules: string[], name: string) {
  const [first] = shared.cluster.members;
  const { createRole } = await asAdminOn(first!.url, 'auth', { createRole: { name, accessRules } });
  return createRole.id as string;
}

async function application(name: string, roleIds: string[]) {
  const [first] = shared.cluster.members;
  const { createApplication } = await asAdminOn(first!.url, 'auth', {
    createApplication: { name },
  });
  await asAdminOn(first!.url, 'auth', {
    updateApplication: { id: createApplication.application.id, roleIds },
  });
  return {
    id: createApplication.application.id as string,
    key: createApplication.secret as string,
  };
}

const systemsOf = async (baseUrl: string, key: string) => {
  const answer = await call(
    baseUrl,
    'catalog',
    { getSystems: {} },
    { authorization: `Bearer ${key}` },
  );
  return answer.status === 200
    ? (answer.body.getSystems.systems as { id: string }[]).map((system) => system.id)
    : answer.status;
};

describe('three processes on one database', () => {
  it('refuse a key rotated through one of them on the others within a second', async () => {
    const [a, b, c] = shared.cluster.members;
    const app = await application('rotated', [await roleWith(['catalog.catalog.read'], 'reader')]);
    // B and C verify the key and keep it.
    for (const member of [b!, c!]) expect(await systemsOf(member.url, app.key)).toEqual([]);

    await asAdminOn(a!.url, 'auth', { regenerateApplicationSecret: { id: app.id } });
    for (const member of [b!, c!]) {
      expect(
        await withinOneSecond(
          () => systemsOf(member.url, app.key),
          (s) => s === 401,
        ),
      ).toBe(401);
    }
  });

  it('stop listing a system to a team whose grant was removed on another within a second', async () => {
    const [a, b] = shared.cluster.members;
    const roleId = await roleWith(['catalog.catalog.read', 'catalog.catalog.manage'], 'member');
    const app = await application('member', [roleId]);
    const { createTeam } = await asAdminOn(a!.url, 'auth', { createTeam: { name: 'owners' } });
    await asAdminOn(a!.url, 'auth', {
      addTeamMember: { teamId: createTeam.id, applicationId: app.id },
    });
    const { createSystem } = await asAdminOn(a!.url, 'catalog', {
      createSystem: { name: 'team-only' },
    });
    const access = (grants: unknown[]) =>
      asAdminOn(a!.url, 'auth', {
        updateResourceAccess: {
          resourceType: 'catalog.system',
          resourceId: createSystem.id,
          teamOnly: true,
          grants,
        },
      });
    await access([{ teamId: createTeam.id, access: 'read' }]);
    expect(await systemsOf(b!.url, app.key)).toEqual([createSystem.id]);

    await access([]);
    expect(
      await withinOneSecond(
        () => systemsOf(b!.url, app.key),
        (s) => Array.isArray(s) && s.length === 0,
      ),
    ).toEqual([]);
  });

  it(
    'count failed sign-ins against one budget, whichever process they reach',
    { timeout: 60_000 },
    async () => {
      /** The error a sign-in is sent to the error page with (`undefined` when it succeeds). */
      const signIn = async (password: string) => {
        const response = await fetch(`${shared.cluster.url}/api/auth-backend/custom/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: clusterAdmin.email, password }),
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
        });
        const location = response.headers.get('location');
        return location ? new URL(location).searchParams.get('error') : undefined;
      };
      // The budget of one account from one address is 10 (ACCOUNT_ADDRESS_FAILURE_RATE_LIMIT).
      const errors: (string | null | undefined)[] = [];
      for (let attempt = 0; attempt < 10; attempt++) {
        errors.push(await signIn(`wrong-password-${attempt}`));
      }
      expect(new Set(errors).size).toBe(1);
      expect(errors[0]).toMatch(/invalid/i);
      // Each process saw three or four of them: only a shared count is spent by now, and it holds
      // even for the right password from this address.
      for (const password of ['another-wrong-password', clusterAdmin.password]) {
        expect(await signIn(password)).toMatch(/too.many/i);
      }
    },
  );

  it(
    'run each of 300 due health checks exactly once between them',
    { timeout: 120_000 },
    async () => {
      const hits = new Map<string, number[]>();
      const target = createServer((request, response) => {
        const path = request.url ?? '/';
        hits.set(path, [...(hits.get(path) ?? []), Date.now()]);
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      const { port } = target.address() as AddressInfo;
      const sql = postgres(shared.database.url, { max: 2, onnotice: () => {} });
      try {
        await insertDueChecks(sql, 'once', `http://127.0.0.1:${port}/`, 300);
        const stored = await runsOnceAll(sql, 'once');
        expect(stored).toHaveLength(300);
        expect(stored.filter((check) => check.runs !== 1)).toEqual([]);
        // The target saw each once (a run made twice but recorded once would show here).
        expect([...hits.entries()].filter(([, times]) => times.length !== 1)).toEqual([]);
        expect(hits.size).toBe(300);
      } finally {
        await sql.end({ timeout: 0 });
        target.closeAllConnections();
        await new Promise((resolve) => target.close(resolve));
      }
    },
  );

  it('take turns answering through the round-robin proxy', async () => {
    const served = () =>
      shared.cluster.members.map(
        (member) =>
          member.process.lines.filter((line) => line.msg === 'request' && line.path === '/healthz')
            .length,
      );
    const before = served();
    for (let index = 0; index < 6; index++) {
      expect((await fetch(`${shared.cluster.url}/healthz`)).status).toBe(200);
    }
    // Access-log lines are written as each answer goes out: give the last one a moment.
    const after = await withinOneSecond(
      async () => served(),
      (counts) => counts.reduce((sum, count) => sum + count, 0) - 6 === sum(before),
    );
    expect(after.map((count, index) => count - before[index]!)).toEqual([2, 2, 2]);
  });

  /** Runs last: it kills one of the three. */
  it(
    'retry once, after its lease, every check run a process killed mid-run held',
    { timeout: 120_000 },
    async () => {
      const requests = new Map<string, number>();
      /** Paths whose request the killed process abandoned before the answer. */
      const abandoned = new Set<string>();
      let pending = 0;
      const target = createServer((request, response) => {
        const path = request.url ?? '/';
        requests.set(path, (requests.get(path) ?? 0) + 1);
        pending++;
        // Slow answers keep runs in flight when the process dies.
        const timer = setTimeout(() => response.writeHead(200).end('ok'), 2_000);
        response.on('close', () => {
          pending--;
          if (!response.writableFinished) abandoned.add(path);
          clearTimeout(timer);
        });
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      const { port } = target.address() as AddressInfo;
      const sql = postgres(shared.database.url, { max: 2, onnotice: () => {} });
      const victim = shared.cluster.members[2]!;
      try {
        await insertDueChecks(sql, 'killed', `http://127.0.0.1:${port}/killed/`, 60);
        const started = Date.now();
        // Each process runs at most 8 at once against one host (CHECK_MAX_PER_HOST): with 20 in
        // flight, all three have some.
        while (pending < 20 && Date.now() - started < 30_000) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        victim.process.signal('SIGKILL');
        expect(await victim.process.exitWithin(10_000)).toMatchObject({ signal: 'SIGKILL' });

        // The lease is the check's timeout (5 s) plus a 5 s margin: well within the wait.
        const stored = await runsOnceAll(sql, 'killed');
        expect(stored).toHaveLength(60);
        expect(stored.filter((check) => check.runs !== 1)).toEqual([]);
        // What the killed process held mid-request (which runs it held when it died is up to
        // the scheduler; it may hold none) was asked again once, by a survivor; no check was
        // asked a third time.
        const twice = new Set(
          [...requests].filter(([, count]) => count === 2).map(([path]) => path),
        );
        expect([...abandoned].filter((path) => !twice.has(path))).toEqual([]);
        expect([...requests.values()].filter((count) => count !== 1 && count !== 2)).toEqual([]);
        expect(requests.size).toBe(60);
        // The survivors keep serving through the proxy.
        for (let index = 0; index < 4; index++) {
          expect((await fetch(`${shared.cluster.url}/healthz`)).status).toBe(200);
        }
      } finally {
        await sql.end({ timeout: 0 });
        target.closeAllConnections();
        await new Promise((resolve) => target.close(resolve));
      }
    },
  );
});

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);

/**
 * Inserts `count` HTTP checks named `prefix-1` to `prefix-<count>`, asking `url` with the number
 * appended, all due now and next due in an hour: each must run once, by whichever process claims
 * it.
 */
async function insertDueChecks(sql: postgres.Sql, prefix: string, url: string, count: number) {
  await sql`
    insert into healthcheck.health_checks (system_id, name, type, config, interval_seconds,
      timeout_ms, next_run_at)
    select gen_random_uuid(), ${`${prefix}-`}::text || i, 'healthcheck.http',
      jsonb_build_object('url', ${url}::text || i), 3600, 5000, now()
    from generate_series(1, ${count}::int) as i`;
}

/**
 * The stored runs of each check named `prefix-…` once every one has run (60 s at most), and a
 * moment more: a second claim would come at once if it came at all.
 */
async function runsOnceAll(sql: postgres.Sql, prefix: string) {
  const runs = () => sql<{ name: string; runs: number }[]>`
    select checks.name, count(results.id)::int as runs
    from healthcheck.health_checks as checks
    left join healthcheck.results on results.health_check_id = checks.id
    where checks.name like ${`${prefix}-%`} group by checks.name`;
  const deadline = Date.now() + 60_000;
  while ((await runs()).some((check) => check.runs === 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return runs();
}
