// The cost of shared limits on the keyed read: keyed `catalog.getSystem` on one bench server
// process whose per-key budget is counted in memory, against the same read on one whose budget is
// shared through PostgreSQL (leased in chunks, `LeasedBudget`), in the same run, on one database.
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { processCpuMicros } from './process-cpu.ts';

type Budget = 'in memory' | 'shared';

interface SharedLimitRow {
  budget: Budget;
  requests: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  non2xx: number;
}

interface SharedLimitFigures {
  rows: SharedLimitRow[];
  budgetPerMinute: number;
  /** Calls the shared rows made (warm-ups included), and the points their processes leased. */
  sharedCalls: number;
  leasedPoints: number;
}

interface Options {
  /** Starts a bench server process with these environment variables added, on `listenOn`. */
  start(
    listenOn: number,
    env: Record<string, string>,
  ): { child: ChildProcess; ready: Promise<unknown> };
  /** Ports from here on are free for the row servers. */
  firstPort: number;
  databaseUrl: string;
  key: string;
  systemId: string;
  seconds: number;
  connections: number;
}

/** Runs in-memory, shared, shared, in-memory, so drift over the run weighs on both alike. */
const ORDER: Budget[] = ['in memory', 'shared', 'shared', 'in memory'];

export async function sharedLimitRows(options: Options): Promise<SharedLimitFigures> {
  // Large enough that no row is refused, small enough that its process leases a chunk (a
  // hundredth of it) every second or so while loaded: a key near its budget.
  const budgetPerMinute = Number(process.env.BENCH_KEY_BUDGET ?? 120_000);
  const rows: SharedLimitRow[] = [];
  let sharedCalls = 0;
  for (const [index, budget] of ORDER.entries()) {
    const url = `http://127.0.0.1:${options.firstPort + index}`;
    const server = options.start(options.firstPort + index, {
      API_KEY_RATE_LIMIT: String(budgetPerMinute),
      BENCH_RATE_LIMITS_IN_PROCESS: budget === 'in memory' ? '1' : '',
    });
    try {
      await server.ready;
      const load = (duration: number) =>
        autocannon({
          url,
          connections: options.connections,
          duration,
          requests: [
            {
              method: 'POST',
              path: '/api/catalog/',
              headers: {
                authorization: `Bearer ${options.key}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ getSystem: { id: options.systemId } }),
            },
          ],
        });
      const warmUp = await load(2);
      const cpuBefore = processCpuMicros(server.child.pid!);
      const result = await load(options.seconds);
      const cpu = processCpuMicros(server.child.pid!) - cpuBefore;
      if (budget === 'shared') sharedCalls += warmUp.requests.total + result.requests.total;
      rows.push({
        budget,
        requests: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        cpuPerRequest: result.requests.total > 0 ? cpu / result.requests.total : 0,
        non2xx: warmUp.non2xx + warmUp.errors + result.non2xx + result.errors,
      });
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
  }
  return { rows, budgetPerMinute, sharedCalls, leasedPoints: await leasedPoints(options) };
}

/** Points the shared store holds for per-key budgets (the in-memory rows write none). */
async function leasedPoints(options: Options): Promise<number> {
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ points: number }[]>`
      select coalesce(sum(points), 0)::int as points from checkline.rate_limits
      where key like 'auth-key:%'`;
    return row!.points;
  } finally {
    await sql.end();
  }
}

export function printSharedLimitRows(figures: SharedLimitFigures) {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(
    `\nShared limits: keyed catalog.getSystem on one process, per-key budget ${figures.budgetPerMinute} a minute (PostgreSQL)`,
  );
  console.log(
    `${'per-key budget'.padEnd(52)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('cpu us', 8)}${pad('non-2xx', 9)}`,
  );
  for (const row of figures.rows) {
    console.log(
      `${`counted ${row.budget === 'shared' ? 'through PostgreSQL (leased)' : 'in memory'}`.padEnd(52)}${pad(Math.round(row.requests), 9)}${pad(row.p50, 8)}${pad(row.p99, 8)}${pad(Math.round(row.cpuPerRequest), 8)}${pad(row.non2xx, 9)}`,
    );
  }
  const mean = (budget: Budget) => {
    const of = figures.rows.filter((row) => row.budget === budget);
    return of.reduce((sum, row) => sum + row.requests, 0) / of.length;
  };
  const ratio = mean('shared') / mean('in memory');
  const change = `${(Math.abs(1 - ratio) * 100).toFixed(1)} % ${ratio <= 1 ? 'slower' : 'faster'}`;
  console.log(
    `  shared / in memory (means of two rows each): ${ratio.toFixed(3)}x, ${change} (target: under 10 % slower)`,
  );
  console.log(
    `  the shared rows made ${figures.sharedCalls} calls; the store counted ${figures.leasedPoints} points leased for them`,
  );
}
