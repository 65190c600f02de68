import autocannon from 'autocannon';

interface Latency {
  p50: number;
  p99: number;
  requests: number;
}

/**
 * The `inbox streams` row: another client's p99 on a cheap read (keyed catalog.getSystem, API
 * key) on an idle server, then while one user holds as many notification streams as one user
 * may (and tries to open more) and marks notifications read in a loop, in the same run. Every
 * loop stops at a deadline.
 */
export async function inboxStreamRows(options: {
  base: string;
  key: string;
  systemId: string;
  admin: { email: string; password: string };
  streamsPerUser: number;
  seconds: number;
}) {
  const { base, key, systemId, seconds } = options;
  const login = await fetch(`${base}/api/auth-backend/custom/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: options.admin.email, password: options.admin.password }),
  });
  if (!login.ok) throw new Error(`login: ${login.status}`);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const me = (await (
    await fetch(`${base}/api/auth/`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ getMe: {} }),
    })
  ).json()) as { getMe: { id: string } };

  const read = async (connections: number): Promise<Latency> => {
    const result = await autocannon({
      url: base,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: '/api/catalog/',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ getSystem: { id: systemId } }),
        },
      ],
    });
    return { p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.average };
  };

  await read(5); // warm-up
  const idle = await read(5);

  // One user's streams, read in the background; a few more than the limit, so the oldest close.
  const controllers: AbortController[] = [];
  let opened = 0;
  let refused = 0;
  for (let index = 0; index < options.streamsPerUser + 5; index++) {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${base}/rest/notification/streamNotifications`, {
      headers: { cookie, origin: base, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status !== 200) {
      refused += 1;
      continue;
    }
    opened += 1;
    void response.body
      ?.pipeTo(new WritableStream())
      .catch(() => {})
      .finally(() => void 0);
  }

  const deadline = Date.now() + (seconds + 5) * 1_000;
  let marks = 0;
  let stop = false;
  const keyed = (pluginId: string, body: unknown, auth: Record<string, string>) =>
    fetch(`${base}/api/${pluginId}/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.arrayBuffer());
  const marking = (async () => {
    while (!stop && Date.now() < deadline) {
      await keyed(
        'notification',
        {
          notifyUsers: {
            userIds: [me.getMe.id],
            notification: { title: 'Bench', type: 'bench.inbox', body: 'Something **changed**' },
          },
        },
        { authorization: `Bearer ${key}` },
      );
      await keyed('notification', { markAsRead: { all: true } }, { cookie, origin: base });
      marks += 1;
    }
  })();
  const started = Date.now();
  const loaded = await read(5);
  stop = true;
  await marking;
  const markSeconds = (Date.now() - started) / 1_000;
  for (const controller of controllers) controller.abort();

  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(
    `\nInbox streams: another client's cheap read (keyed catalog.getSystem, API key, 5 connections), ${seconds} s each`,
  );
  console.log(`${'row'.padEnd(72)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}`);
  const line = (name: string, row: Latency) =>
    console.log(
      `${name.padEnd(72)}${pad(Math.round(row.requests), 9)}${pad(row.p50, 8)}${pad(row.p99, 8)}`,
    );
  line('idle server', idle);
  line(
    `one user at ${options.streamsPerUser} streams, notify + markAsRead in a loop (${(marks / markSeconds).toFixed(0)}/s)`,
    loaded,
  );
  console.log(
    `  streams opened ${opened} (the oldest closed past ${options.streamsPerUser}), refused ${refused}; p99 loaded / idle: ${(loaded.p99 / Math.max(idle.p99, 1)).toFixed(2)}x`,
  );
}
