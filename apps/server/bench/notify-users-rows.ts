import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

interface Run {
  written: number;
  ms: number;
  statements: number;
}

const TARGET_MS = 1_000;

/**
 * The `notifyUsers to 10 000 users` rows: the set-based insert at 1 000 and 10 000 users, the
 * baseline issuing the same insert once per user, and the whole keyed call over HTTP with an
 * application key, side by side in one run.
 */
export async function notifyUsersRows(base: string, key: string, databaseKind: string) {
  async function run(users: number, perUser = false): Promise<Run> {
    const response = await fetch(`${base}/bench/notify-users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ users, perUser }),
    });
    if (!response.ok) throw new Error(`notify-users: ${response.status} ${await response.text()}`);
    return (await response.json()) as Run;
  }

  async function overHttp(users: number): Promise<number> {
    const body = JSON.stringify({
      notifyUsers: {
        userIds: Array.from({ length: users }, () => randomUUID()),
        notification: { title: 'Bench over HTTP', type: 'bench.notify' },
      },
    });
    const started = performance.now();
    const response = await fetch(`${base}/api/notification/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    const answer = await response.text();
    const ms = performance.now() - started;
    if (!response.ok) throw new Error(`keyed notifyUsers: ${response.status} ${answer}`);
    return ms;
  }

  await run(1_000); // warm-up: plans and connections
  await overHttp(1_000);
  const rows = [
    { name: 'notifyUsers to 1 000 users', users: 1_000, ...(await run(1_000)) },
    { name: 'notifyUsers to 10 000 users', users: 10_000, ...(await run(10_000)) },
    {
      name: 'baseline: the same insert once per user',
      users: 10_000,
      ...(await run(10_000, true)),
    },
  ];
  const http = await overHttp(10_000);

  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(
    `\n${`notifyUsers on ${databaseKind} (one transaction, in the server)`.padEnd(60)}${pad('users', 8)}${pad('ms', 10)}${pad('statements', 12)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(60)}${pad(row.users, 8)}${pad(row.ms.toFixed(1), 10)}${pad(row.statements, 12)}`,
    );
  }
  console.log(
    `${'keyed notifyUsers over HTTP, 10 000 unknown ids (none stored)'.padEnd(60)}${pad(10_000, 8)}${pad(http.toFixed(1), 10)}${pad('-', 12)}`,
  );
  const [small, large, perUser] = rows;
  console.log(
    `  10 000 users: ${large!.ms.toFixed(0)} ms (target < ${TARGET_MS} ms), ${(perUser!.ms / large!.ms).toFixed(1)}x faster than one insert per user; statements ${small!.statements} for 1 000 users and ${large!.statements} for 10 000 (target: constant)`,
  );
}
