// `pnpm bench`: starts bench/server.ts in its own process, seeds it over HTTP, loads each route
// from this process with autocannon for a fixed time on 127.0.0.1, and prints one table.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { checkRows, printCheckRows } from './checks.ts';
import { clusterReadRows, printClusterReadRows } from './cluster-read.ts';
import { deliveryThroughput } from './deliveries.ts';
import { memoryGroup, memorySystem } from './memory-plugin.ts';
import { inboxStreamRows } from './inbox-streams.ts';
import { notifyUsersRows } from './notify-users-rows.ts';
import { printMarkdownRenderRows } from './markdown-render.ts';
import { processCpuMicros } from './process-cpu.ts';
import { printSharedLimitRows, sharedLimitRows } from './shared-limits.ts';
import { NOOP_USE_RULE } from './noop-channel.ts';
import { seedStatusPage } from './statuspage.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const adminUrl = process.env.DATABASE_URL;
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const admin = { email: 'bench@checkline.local', password: 'bench-password-1234' };
/** The most notification streams one user may hold (the server is started with it). */
const streamsPerUser = 20;

async function freshDatabase(): Promise<{ url?: string; dataDir?: string; drop(): Promise<void> }> {
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'checkline-bench-'));
    return { dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `checkline_bench_${Date.now().toString(36)}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

function startServer(
  database: { url?: string; dataDir?: string },
  listenOn = port,
  extraEnv: Record<string, string> = {},
) {
  const nodeFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'bench/server.ts'], {
    env: {
      ...process.env,
      PORT: String(listenOn),
      HOST: '127.0.0.1',
      BASE_URL: base,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      API_KEY_RATE_LIMIT: '0',
      NOTIFICATIONS_PER_CALLER_PER_HOUR: '0',
      INBOX_STREAMS_PER_USER: String(streamsPerUser),
      // The check-scheduling rows run HTTP checks against a target in this process.
      CHECK_TARGETS_ALLOW: '127.0.0.1',
      // Its one target stands for many hosts and owners: the fair-share caps would measure that
      // one host, not the scheduler.
      CHECK_MAX_PER_HOST: '10000',
      CHECK_MAX_PER_OWNER: '10000',
      DATABASE_URL: database.url ?? '',
      DATA_DIR: database.dataDir ?? '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<{ database: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{"ready"')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { database: string });
    });
  });
  return { child, ready };
}

async function call(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json');
  if (init.cookie) {
    headers.set('cookie', init.cookie);
    headers.set('origin', base);
  }
  const response = await fetch(`${base}${path}`, { ...init, headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Logs in as the admin and makes an application whose role may read both catalogs. */
async function seed() {
  const login = await call('/api/auth-backend/custom/login', {
    method: 'POST',
    body: JSON.stringify({ username: admin.email, password: admin.password }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const keyed = async (pluginId: string, body: unknown) =>
    (await (
      await call(`/api/${pluginId}/`, { method: 'POST', cookie, body: JSON.stringify(body) })
    ).json()) as Record<string, any>;

  const { createRole } = await keyed('auth', {
    createRole: {
      name: 'bench-readers',
      accessRules: ['catalog.catalog.read', 'memory.memory.read', 'notification.notification.send'],
    },
  });
  const { createApplication } = await keyed('auth', { createApplication: { name: 'bench' } });
  await keyed('auth', {
    updateApplication: {
      id: createApplication.application.id,
      roleIds: [...createApplication.application.roleIds, createRole.id],
    },
  });
  const { createSystem } = await keyed('catalog', {
    createSystem: {
      name: 'bench-system',
      description: 'the system every benchmark reads',
      tags: ['bench'],
    },
  });
  const { createGroup } = await keyed('catalog', { createGroup: { name: 'bench-group' } });
  await keyed('catalog', {
    addSystemToGroup: { groupId: createGroup.id, systemId: createSystem.id },
  });
  const statusPagePath = await seedStatusPage(keyed);
  return {
    statusPagePath,
    key: createApplication.secret as string,
    systemId: createSystem.id as string,
    groupId: createGroup.id as string,
  };
}

type BenchRequest = {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

interface Scenario {
  name: string;
  /** Procedure calls per HTTP request. */
  calls: number;
  request?: BenchRequest;
  /** Requests sent in turn on each connection, instead of one `request`. */
  requests?: BenchRequest[];
}

async function load(scenario: Scenario, duration: number) {
  const cpuBefore = processCpuMicros(server.child.pid!);
  const result = await autocannon({
    url: base,
    connections,
    duration,
    requests: scenario.requests ?? [scenario.request!],
  });
  const cpu = processCpuMicros(server.child.pid!) - cpuBefore;
  return {
    requests: result.requests.average,
    cpuPerRequest: result.requests.total > 0 ? cpu / result.requests.total : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const database = await freshDatabase();
const server = startServer(database);
try {
  const { database: kind } = await server.ready;
  const { key, systemId, groupId, statusPagePath } = await seed();
  // The page's answer, built once; the baseline serves the same bytes from a bare route.
  const pageJson = await (await call(statusPagePath)).text();
  await call('/bench/bare-page', { method: 'POST', body: pageJson });
  await call('/bench/statuspage-statements', { method: 'POST' });
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  /** The five reads every batch row sends, as one keyed body. */
  const readBatch = (system: string, group: string) => ({
    getSystem: { id: system },
    getSystems: {},
    getGroups: {},
    getGroup: { id: group },
    getSystemGroups: { systemId: system },
  });
  const batch = readBatch(systemId, groupId);
  const memoryBatch = readBatch(memorySystem.id, memoryGroup.id);
  const keyedRequest = (pluginId: string, body: object): BenchRequest => ({
    method: 'POST',
    path: `/api/${pluginId}/`,
    headers: auth,
    body: JSON.stringify(body),
  });
  const separately = (pluginId: string, body: object) =>
    Object.entries(body).map(([key, input]) => keyedRequest(pluginId, { [key]: input }));
  const scenarios: Scenario[] = [
    {
      name: '(a) bare Hono route, same-sized JSON',
      calls: 1,
      request: { method: 'GET', path: '/bench/bare' },
    },
    {
      name: "(a') bare Hono route, the status page's JSON",
      calls: 1,
      request: { method: 'GET', path: '/bench/bare-page' },
    },
    {
      name: 'anonymous status page, 50 systems, cached',
      calls: 1,
      request: { method: 'GET', path: statusPagePath },
    },
    {
      name: '(b) oRPC OpenAPIHandler, prepared PK read, no auth',
      calls: 1,
      request: { method: 'GET', path: `/bench/orpc-read?id=${systemId}` },
    },
    {
      name: 'keyed catalog.getSystem, API key',
      calls: 1,
      request: keyedRequest('catalog', { getSystem: { id: systemId } }),
    },
    {
      name: 'REST GET catalog/getSystem, API key',
      calls: 1,
      request: { method: 'GET', path: `/rest/catalog/getSystem?id=${systemId}`, headers: auth },
    },
    {
      name: 'the 5 catalog reads as 5 keyed requests, API key',
      calls: 1,
      requests: separately('catalog', batch),
    },
    {
      name: 'keyed batch of those 5 catalog reads, API key',
      calls: 5,
      request: keyedRequest('catalog', batch),
    },
    {
      name: '(c) oRPC RPCHandler, in-memory getSystem, no auth',
      calls: 1,
      request: {
        method: 'POST',
        path: '/bench/rpc/getSystem',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ json: { id: memorySystem.id } }),
      },
    },
    {
      name: 'keyed memory.getSystem (in-memory), API key',
      calls: 1,
      request: keyedRequest('memory', { getSystem: { id: memorySystem.id } }),
    },
    {
      name: 'the 5 in-memory reads as 5 keyed requests',
      calls: 1,
      requests: separately('memory', memoryBatch),
    },
    {
      name: 'keyed batch of those 5 in-memory reads',
      calls: 5,
      request: keyedRequest('memory', memoryBatch),
    },
  ];

  const only = process.env.BENCH_ONLY;
  if (only) {
    // Profiling aid: load just the rows whose name contains BENCH_ONLY, print raw figures.
    for (const scenario of scenarios.filter((each) => each.name.includes(only))) {
      console.log(scenario.name, await load(scenario, seconds));
    }
    if ('anonymous status page'.includes(only)) await printStatusPageStatements(pageJson.length);
    if ('notifyUsers to 10 000 users'.includes(only)) await notifyUsersRows(base, key, kind);
  } else {
    await report(scenarios, kind);
    await printStatusPageStatements(pageJson.length);
    await notifyUsersRows(base, key, kind);
  }
  if (!only || 'shared limits'.includes(only)) {
    if (database.url) {
      const figures = await sharedLimitRows({
        start: (listenOn, env) => startServer(database, listenOn, env),
        firstPort: port + 300,
        databaseUrl: database.url,
        key,
        systemId,
        seconds,
        connections,
      });
      printSharedLimitRows(figures);
    } else {
      console.log('\nShared limits: PostgreSQL only (set DATABASE_URL).');
    }
  }
  if (!only || 'inbox streams'.includes(only)) {
    await inboxStreamRows({ base, key, systemId, admin, streamsPerUser, seconds });
  }
  if (!only || 'deliveries'.includes(only)) {
    if (database.url) {
      // A second server process on the same database: two delivery workers share the queue.
      const second = startServer(database, port + 100);
      try {
        await second.ready;
        const figures = await deliveryThroughput({
          base,
          key,
          databaseUrl: database.url,
          useRule: NOOP_USE_RULE,
        });
        printDeliveries(figures);
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((resolve) => second.child.once('exit', resolve));
      }
    } else {
      console.log('\nDeliveries per second: PostgreSQL only (set DATABASE_URL).');
    }
  }
  if (!only || 'check scheduling'.includes(only)) {
    if (database.url) {
      const sizes = (process.env.BENCH_CHECKS ?? '2000,10000').split(',').map(Number);
      const rows = await checkRows(database.url, 1, sizes);
      // A second server process on the same database: two schedulers share the checks.
      const second = startServer(database, port + 200);
      try {
        await second.ready;
        rows.push(...(await checkRows(database.url, 2, sizes)));
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((resolve) => second.child.once('exit', resolve));
      }
      printCheckRows(rows);
    } else {
      console.log('\nCheck scheduling: PostgreSQL only (set DATABASE_URL).');
    }
  }
  if (!only || 'several processes'.includes(only)) {
    if (adminUrl) {
      // A database of its own: the harness's first process migrates it and makes its admin.
      const clusterDatabase = await freshDatabase();
      try {
        printClusterReadRows(await clusterReadRows(clusterDatabase.url!, seconds, connections));
      } finally {
        await clusterDatabase.drop();
      }
    } else {
      console.log('\nSeveral processes: PostgreSQL only (set DATABASE_URL).');
    }
  }
} finally {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  await database.drop();
}
if (!process.env.BENCH_ONLY || 'markdown rendering'.includes(process.env.BENCH_ONLY)) {
  printMarkdownRenderRows();
}

async function report(scenarios: Scenario[], kind: string) {
  console.log(
    `\nCheckline benchmark: ${kind}, ${cpus().length} cores, ${connections} connections, ${seconds} s per row (after a 2 s warm-up), node ${process.version}\n`,
  );
  const rows: (Awaited<ReturnType<typeof load>> & { scenario: Scenario })[] = [];
  for (const scenario of scenarios) {
    await load(scenario, 2);
    rows.push({ scenario, ...(await load(scenario, seconds)) });
  }
  const rate = (name: string) => {
    const row = rows.find((each) => each.scenario.name.startsWith(name));
    if (!row) throw new Error(`no row ${name}`);
    return row.requests * row.scenario.calls;
  };
  const bare = rate('(a)');
  const orpc = rate('(b)');
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(
    `${'route'.padEnd(52)}${pad('req/s', 9)}${pad('calls/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('cpu us', 8)}${pad('x (a)', 7)}${pad('x (b)', 7)}${pad('non-2xx', 9)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.scenario.name.padEnd(52)}${pad(Math.round(row.requests), 9)}${pad(Math.round(row.requests * row.scenario.calls), 9)}${pad(row.p50, 8)}${pad(row.p99, 8)}${pad(Math.round(row.cpuPerRequest), 8)}${pad((row.requests / bare).toFixed(2), 7)}${pad((row.requests / orpc).toFixed(2), 7)}${pad(row.non2xx + row.errors, 9)}`,
    );
  }
  const ratio = (over: number, under: number) => `${(over / under).toFixed(2)}x`;
  console.log(`\nTargets (the design's; measured, not asserted):`);
  console.log(
    `  anonymous status page / (a) bare Hono: ${ratio(rate('anonymous status page'), bare)}, / (a') the same bytes from a bare route: ${ratio(rate('anonymous status page'), rate("(a')"))} (target >= 0.5x)`,
  );
  console.log(
    `  authenticated keyed read / (b): ${ratio(rate('keyed catalog.getSystem'), orpc)} (target >= 0.8x on PostgreSQL)`,
  );
  console.log(
    `  authenticated REST read  / (b): ${ratio(rate('REST GET'), orpc)} (target >= 0.8x on PostgreSQL)`,
  );
  console.log(
    `  keyed in-memory call, API key / (c) RPCHandler, no auth: ${ratio(rate('keyed memory.getSystem'), rate('(c)'))} (target >= 1x)`,
  );
  console.log(
    `  batch of 5 catalog reads, calls/s / the same 5 as separate requests: ${ratio(rate('keyed batch of those 5 catalog'), rate('the 5 catalog'))} (target >= 3x)`,
  );
  console.log(
    `  batch of 5 in-memory reads, calls/s / the same 5 as separate requests: ${ratio(rate('keyed batch of those 5 in-memory'), rate('the 5 in-memory'))}`,
  );
}

async function printStatusPageStatements(bytes: number) {
  const totals = (await (await call('/bench/statuspage-statements')).json()) as {
    requests: number;
    statements: number;
  };
  console.log(
    `  anonymous status page (${bytes} bytes of JSON): ${totals.statements} database statements in ${totals.requests} cached requests (${(totals.statements / Math.max(totals.requests, 1)).toFixed(4)} per request; target 0)`,
  );
}

function printDeliveries(figures: Awaited<ReturnType<typeof deliveryThroughput>>) {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(
    `\nDelivery queue: ${figures.deliveries} deliveries through a no-op strategy (sendExternal over HTTP, ${figures.usersPerCall} users a call)`,
  );
  console.log(`${'row'.padEnd(72)}${pad('per s', 9)}${pad('seconds', 9)}`);
  for (const row of figures.rows) {
    console.log(
      `${row.name.padEnd(72)}${pad(Math.round(row.perSecond), 9)}${pad(row.seconds.toFixed(2), 9)}`,
    );
  }
  console.log(
    `  queue / baseline: ${(figures.rows[0]!.perSecond / figures.rows[1]!.perSecond).toFixed(2)}x; target >= 1000 deliveries/s with two worker processes`,
  );
}
