import { randomBytes } from 'node:crypto';
import type { ThrowawayPostgres } from '@checkline/db/testing';
import { freeLoopbackPort, startThrowawayPostgres } from '@checkline/db/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from './support/server-process.ts';
import { startServerProcess } from './support/server-process.ts';

/*
 * PostgreSQL goes away under load and comes back. The server runs as a real process against a
 * cluster of this test's own (never the machine's server), which the test stops for ten seconds
 * while ten clients keep writing.
 */
const admin = { email: 'admin@example.com', password: 'outage-test-admin-password' };
const clients = 10;
const outageMs = 10_000;
/** A request without an answer in this time counts as hanging. */
const requestDeadlineMs = 8_000;

let cluster: ThrowawayPostgres;
let server: ServerProcess;
let baseUrl: string;

beforeAll(async () => {
  cluster = await startThrowawayPostgres();
  // Down before the server starts: start-up must wait for it, not die.
  await cluster.stop();
  const port = await freeLoopbackPort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startServerProcess({
    PORT: String(port),
    BASE_URL: baseUrl,
    DATABASE_URL: cluster.url,
    DATABASE_POOL_SIZE: '4',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // Its own key, so the server does not generate one into the repository's data folder.
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
});
afterAll(async () => {
  await server?.dispose();
  await cluster?.destroy();
});

interface Outcome {
  status: number | 'hang' | 'refused';
  systemId?: string;
}

async function signIn(): Promise<Record<string, string>> {
  const login = await fetch(`${baseUrl}/api/auth-backend/custom/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.email, password: admin.password }),
  });
  const cookie = /checkline_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
  if (login.status !== 200 || !cookie) throw new Error(`sign-in failed: ${login.status}`);
  return { cookie, origin: baseUrl, 'content-type': 'application/json' };
}

async function createSystem(headers: Record<string, string>, name: string): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}/api/catalog/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ createSystem: { name } }),
      signal: AbortSignal.timeout(requestDeadlineMs),
    });
    const body = (await response.json()) as { createSystem?: { id: string } };
    return { status: response.status, systemId: body.createSystem?.id };
  } catch (error) {
    return { status: (error as Error).name === 'TimeoutError' ? 'hang' : 'refused' };
  }
}

/** Ten clients writing in a loop until `until` resolves; every outcome in order. */
async function load(headers: Record<string, string>, until: Promise<void>, label: string) {
  let running = true;
  void until.then(() => (running = false));
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let n = 0; running; n++) {
        outcomes.push(await createSystem(headers, `${label}-${client}-${n}`));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
  );
  return outcomes;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Each scenario waits for processes and a cluster: bounded by its own waits (up to 60 s + 90 s for
// the start-up), not by the 30 s a test gets by default, which a busy machine overruns.
describe('PostgreSQL going away under load', { timeout: 180_000 }, () => {
  it('start-up waits for an unreachable database, saying what it waits for, then serves', async () => {
    const waiting = await server.waitForLog((line) => line.msg.startsWith('waiting for'), 60_000);
    expect(waiting).toMatchObject({ level: 40, attempt: 1 });
    expect(waiting.msg).toContain(`127.0.0.1:${cluster.port}`);
    expect(server.alive()).toBe(true);
    await cluster.start();
    await server.waitForLog((line) => line.msg === 'listening', 90_000);
  });

  it('keeps the process alive, answers 503 (never 500, never hangs) and loses no acknowledged write', async () => {
    const headers = await signIn();
    const before = await load(headers, pause(2_000), 'before');
    expect(before.every((outcome) => outcome.status === 200)).toBe(true);

    const outage = (async () => {
      await cluster.stop();
      await pause(outageMs);
      await cluster.start();
    })();
    const during = await load(headers, outage, 'during');

    // Back without a restart: the same process answers again.
    let recovered: Outcome = { status: 'refused' };
    for (let attempt = 0; attempt < 100 && recovered.status !== 200; attempt++) {
      recovered = await createSystem(headers, `recovered-${attempt}`);
      if (recovered.status !== 200) await pause(200);
    }
    const after = await load(headers, pause(1_000), 'after');

    expect(server.alive()).toBe(true);
    const statuses = new Set(during.map((outcome) => outcome.status));
    expect(statuses.has(503)).toBe(true);
    expect([...statuses].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(recovered.status).toBe(200);
    expect(after.every((outcome) => outcome.status === 200)).toBe(true);

    const acknowledged = [...before, ...during, recovered, ...after].flatMap((outcome) =>
      outcome.status === 200 && outcome.systemId ? [outcome.systemId] : [],
    );
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<{ id: string }[]>`select id from catalog.systems`;
      const stored = new Set(rows.map((row) => row.id));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it('logs the outage once per background worker, with no SQL parameter in the log', () => {
    const paused = server.lines.filter((line) =>
      line.msg.startsWith('database unavailable: health check scheduler paused'),
    );
    expect(paused).toHaveLength(1);
    expect(
      server.lines.some(
        (line) => line.msg === 'database reachable again: health check scheduler resumed',
      ),
    ).toBe(true);
    expect(server.rawLines.join('\n')).not.toContain(admin.password);
    expect(server.rawLines.join('\n')).not.toMatch(/"params"|"parameters"/);
  });
});
