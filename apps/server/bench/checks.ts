// The check-scheduling rows of `pnpm bench` (PostgreSQL only): HTTP checks at a 60 s interval
// against a loopback target, run by the bench server's scheduler alone and then together with a
// second server process; runs per second, lag p50/p99 and a count of runs made twice.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';

const INTERVAL_SECONDS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CheckRow {
  name: string;
  checks: number;
  processes: number;
  seconds: number;
  runs: number;
  perProcess: number[];
  lagP50: number | null;
  lagP99: number | null;
  /** Checks whose target saw more requests than the check has results: a run made twice. */
  twice: number;
  /** Requests the target saw minus results stored: runs made and not recorded. */
  unrecorded: number;
}

/** A loopback HTTP target counting requests per path (one path per check). */
async function startTarget() {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Sql = ReturnType<typeof postgres>;

/**
 * `count` checks named bench-<row>-<i>, each on its own system, first due between `firstDueAt`
 * and one interval later (evenly spread), or all at `firstDueAt` when `burst`. Each already has a
 * passing result and a healthy system, as in a steady state, so runs write results only.
 */
async function seedChecks(
  sql: Sql,
  row: string,
  count: number,
  targetBase: string,
  firstDueAt: Date,
  burst: boolean,
) {
  const spread = burst ? 0 : INTERVAL_SECONDS / count;
  await sql`
    insert into healthcheck.health_checks (system_id, name, type, config, interval_seconds,
      timeout_ms, next_run_at)
    select gen_random_uuid(), ${`bench-${row}-`} || i, 'healthcheck.http',
      jsonb_build_object('url', ${`${targetBase}/${row}/`} || i), ${burst ? 3_600 : INTERVAL_SECONDS},
      5000, ${firstDueAt.toISOString()}::timestamptz + (i * ${spread}::float8) * interval '1 second'
    from generate_series(0, ${count - 1}) as i`;
  await sql`
    insert into healthcheck.results (health_check_id, status, latency_ms, message, due_at, checked_at)
    select id, 'pass', 1, '', now() - interval '1 hour', now() - interval '1 hour'
    from healthcheck.health_checks where name like ${`bench-${row}-%`}`;
  await sql`
    insert into healthcheck.system_statuses (system_id, status, changed_at)
    select system_id, 'healthy', now() from healthcheck.health_checks
    where name like ${`bench-${row}-%`}`;
}

/** Stops new runs of the row's checks, then waits (at most 60 s) for those in flight to be written. */
async function quiesce(sql: Sql, row: string) {
  // Rows locked in id order, as the result writer locks them: in any other order this update
  // and a batch of results can deadlock.
  await sql`update healthcheck.health_checks set next_run_at = now() + interval '1 day'
    where id in (select id from healthcheck.health_checks where name like ${`bench-${row}-%`}
      order by id for no key update)`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [{ claimed } = { claimed: 0 }] = await sql<{ claimed: number }[]>`
      select count(*)::int as claimed from healthcheck.health_checks
      where name like ${`bench-${row}-%`} and claimed_due_at is not null`;
    if (claimed === 0 || Date.now() > deadline) break;
    await sleep(100);
  }
}

/** Deletes the row's checks (and their results), locking them in id order as `quiesce` does. */
async function forget(sql: Sql, row: string) {
  await sql`delete from healthcheck.health_checks
    where id in (select id from healthcheck.health_checks where name like ${`bench-${row}-%`}
      order by id for update)`;
}

/** Per check, its stored scheduled results against the requests its path received. */
async function verifyOnce(sql: Sql, row: string, hits: Map<string, number>) {
  const stored = await sql<{ name: string; runs: number }[]>`
    select checks.name, count(results.id)::int as runs
    from healthcheck.health_checks as checks
    left join healthcheck.results on results.health_check_id = checks.id
      and results.process_id is not null
    where checks.name like ${`bench-${row}-%`}
    group by checks.name`;
  let twice = 0;
  let unrecorded = 0;
  for (const { name, runs } of stored) {
    const seen = hits.get(`/${row}/${name.slice(`bench-${row}-`.length)}`) ?? 0;
    if (seen > runs) twice += 1;
    unrecorded += Math.max(0, seen - runs);
  }
  return { twice, unrecorded };
}

async function lagFigures(sql: Sql, row: string, from: Date, to: Date) {
  const rows = await sql<{ process: string | null; runs: number; p50: number; p99: number }[]>`
    select results.process_id as process, count(*)::int as runs,
      percentile_disc(0.5) within group (order by lag_ms) as p50,
      percentile_disc(0.99) within group (order by lag_ms) as p99
    from healthcheck.results
    join healthcheck.health_checks as checks on checks.id = results.health_check_id
    where checks.name like ${`bench-${row}-%`} and results.process_id is not null
      and results.checked_at >= ${from.toISOString()}::timestamptz
      and results.checked_at < ${to.toISOString()}::timestamptz
    group by rollup(results.process_id)`;
  const total = rows.find((each) => each.process === null);
  return {
    runs: total?.runs ?? 0,
    perProcess: rows.filter((each) => each.process !== null).map((each) => each.runs),
    p50: total ? Number(total.p50) : null,
    p99: total ? Number(total.p99) : null,
  };
}

/** `count` checks spread over the interval: after a warm-up, runs and lag over `seconds`. */
async function steadyRow(
  sql: Sql,
  target: Awaited<ReturnType<typeof startTarget>>,
  count: number,
  processes: number,
  seconds: number,
): Promise<CheckRow> {
  const row = `steady${count}x${processes}`;
  const warmUpMs = 5_000;
  const firstDueAt = new Date(Date.now() + 2_000);
  await seedChecks(sql, row, count, target.base, firstDueAt, false);
  const from = new Date(firstDueAt.getTime() + warmUpMs);
  const to = new Date(from.getTime() + seconds * 1_000);
  await sleep(to.getTime() - Date.now());
  await quiesce(sql, row);
  await sleep(500);
  const figures = await lagFigures(sql, row, from, to);
  const once = await verifyOnce(sql, row, target.hits);
  await forget(sql, row);
  return {
    name: `${count.toLocaleString('en')} checks / 60 s, ${processes} process${processes > 1 ? 'es' : ''}`,
    checks: count,
    processes,
    seconds,
    runs: figures.runs,
    perProcess: figures.perProcess,
    lagP50: figures.p50,
    lagP99: figures.p99,
    ...once,
  };
}

/** `count` checks due at once: how fast the processes drain them (capacity, not lag). */
async function burstRow(
  sql: Sql,
  target: Awaited<ReturnType<typeof startTarget>>,
  count: number,
  processes: number,
): Promise<CheckRow> {
  const row = `burst${count}x${processes}`;
  const firstDueAt = new Date(Date.now() + 1_000);
  await seedChecks(sql, row, count, target.base, firstDueAt, true);
  await sleep(firstDueAt.getTime() - Date.now());
  const deadline = Date.now() + 180_000;
  let done = 0;
  while (Date.now() < deadline) {
    [{ done } = { done: 0 }] = await sql<{ done: number }[]>`
      select count(*)::int as done from healthcheck.results
      join healthcheck.health_checks as checks on checks.id = results.health_check_id
      where checks.name like ${`bench-${row}-%`} and results.process_id is not null`;
    if (done >= count) break;
    await sleep(100);
  }
  const [{ last } = { last: firstDueAt }] = await sql<{ last: Date }[]>`
    select max(results.checked_at) as last from healthcheck.results
    join healthcheck.health_checks as checks on checks.id = results.health_check_id
    where checks.name like ${`bench-${row}-%`} and results.process_id is not null`;
  const seconds = (new Date(last).getTime() - firstDueAt.getTime()) / 1_000;
  await quiesce(sql, row);
  const figures = await lagFigures(sql, row, firstDueAt, new Date(Date.now() + 1_000));
  const once = await verifyOnce(sql, row, target.hits);
  await forget(sql, row);
  return {
    name: `${count.toLocaleString('en')} checks due at once, ${processes} process${processes > 1 ? 'es' : ''}`,
    checks: count,
    processes,
    seconds,
    runs: done,
    perProcess: figures.perProcess,
    lagP50: figures.p50,
    lagP99: figures.p99,
    ...once,
  };
}

/**
 * Runs the rows with the processes serving now (`processes`), against one loopback target.
 * `BENCH_CHECK_SECONDS` (default 30) is the measured stretch of each steady row.
 */
export async function checkRows(databaseUrl: string, processes: number, sizes: number[]) {
  const seconds = Number(process.env.BENCH_CHECK_SECONDS ?? 30);
  const sql = postgres(databaseUrl, { max: 4, onnotice: () => {} });
  const target = await startTarget();
  try {
    const rows: CheckRow[] = [];
    for (const count of sizes) rows.push(await steadyRow(sql, target, count, processes, seconds));
    rows.push(await burstRow(sql, target, Math.max(...sizes), processes));
    return rows;
  } finally {
    await target.close();
    await sql.end();
  }
}

export function printCheckRows(rows: CheckRow[]) {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const ms = (value: number | null) => (value === null ? '-' : Math.round(value));
  console.log(
    `\nCheck scheduling: HTTP checks against a loopback target (PostgreSQL; steady rows measured over ${rows[0]?.seconds ?? 0} s after a 5 s warm-up)`,
  );
  console.log(
    `${'row'.padEnd(44)}${pad('runs/s', 9)}${pad('per process', 16)}${pad('lag p50', 9)}${pad('lag p99', 9)}${pad('twice', 7)}${pad('lost', 6)}`,
  );
  for (const row of rows) {
    const perSecond = row.runs / row.seconds;
    const perProcess = row.perProcess.map((runs) => Math.round(runs / row.seconds)).join(' + ');
    console.log(
      `${row.name.padEnd(44)}${pad(perSecond.toFixed(1), 9)}${pad(perProcess, 16)}${pad(ms(row.lagP50), 9)}${pad(ms(row.lagP99), 9)}${pad(row.twice, 7)}${pad(row.unrecorded, 6)}`,
    );
  }
  console.log(
    '  targets: >= 170 runs/s per process (the burst rows show capacity; steady rows run what is due, checks/60 a second) with lag p99 < 1 000 ms; twice = 0',
  );
}
