// The delivery-queue row of `pnpm bench` (PostgreSQL only): deliveries per second through a
// no-op strategy with two server processes as workers, beside a baseline of the database alone.
import postgres from 'postgres';
import { NOOP_STRATEGY_ID } from './noop-channel.ts';

interface Options {
  base: string;
  /** An API key holding `notification.notification.send`. */
  key: string;
  databaseUrl: string;
  useRule: string;
  deliveries?: number;
  usersPerCall?: number;
}

const seconds = (since: number) => (performance.now() - since) / 1_000;

export async function deliveryThroughput(options: Options) {
  const deliveries = options.deliveries ?? Number(process.env.BENCH_DELIVERIES ?? 20_000);
  const usersPerCall = options.usersPerCall ?? 1_000;
  const calls = Math.ceil(deliveries / usersPerCall);
  const sql = postgres(options.databaseUrl, { max: 20, onnotice: () => {} });
  try {
    // Users holding the no-op channel's rule, and the channel enabled and configured.
    const [role] = await sql<{ id: string }[]>`
      insert into auth.roles (name) values ('bench-noop-users') returning id`;
    await sql`insert into auth.role_rules (role_id, rule) values (${role!.id}, ${options.useRule})`;
    const users = await sql<{ id: string }[]>`
      insert into auth.users (email)
      select 'bench-user-' || i || '@checkline.local' from generate_series(1, ${usersPerCall}) as i
      returning id`;
    const userIds = users.map((user) => user.id);
    await sql`insert into auth.user_roles (user_id, role_id)
      select id, ${role!.id}::uuid from unnest(${userIds}::uuid[]) as t(id)`;
    await sql`insert into notification.strategy_settings (strategy_id, enabled, config, config_version)
      values (${NOOP_STRATEGY_ID}, true, '{}'::jsonb, 1)`;

    const started = performance.now();
    const enqueue = async (call: number) => {
      const response = await fetch(`${options.base}/api/notification/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          sendExternal: {
            userIds: userIds.slice(0, Math.min(usersPerCall, deliveries - call * usersPerCall)),
            strategyId: NOOP_STRATEGY_ID,
            notification: { title: `Bench ${call}`, type: 'bench.delivery' },
          },
        }),
      });
      if (!response.ok)
        throw new Error(`sendExternal: ${response.status} ${await response.text()}`);
    };
    for (let call = 0; call < calls; call += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, calls - call) }, (_, offset) => enqueue(call + offset)),
      );
    }
    const enqueued = seconds(started);
    const deadline = Date.now() + 300_000;
    for (;;) {
      const [row] = await sql<{ pending: number }[]>`
        select count(*)::int as pending from notification.deliveries where status = 'pending'`;
      if (row!.pending === 0) break;
      if (Date.now() > deadline) throw new Error(`${row!.pending} deliveries still pending`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const queueSeconds = seconds(started);
    const [sent] = await sql<{ sent: number }[]>`
      select count(*)::int as sent from notification.deliveries where status = 'sent'`;
    if (sent!.sent !== deliveries) throw new Error(`${sent!.sent} of ${deliveries} sent`);

    // Baseline: the database alone, one UPDATE per delivery row from 20 connections.
    const ids = (await sql<{ id: string }[]>`select id from notification.deliveries`).map(
      (row) => row.id,
    );
    const baselineStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          await sql`update notification.deliveries set updated_at = clock_timestamp() where id = ${id}`;
        }
      }),
    );
    const baselineSeconds = seconds(baselineStarted);
    return {
      deliveries,
      usersPerCall,
      rows: [
        {
          name: `queue: sendExternal, 2 worker processes, ${NOOP_STRATEGY_ID} (enqueued in ${enqueued.toFixed(2)} s)`,
          perSecond: deliveries / queueSeconds,
          seconds: queueSeconds,
        },
        {
          name: 'baseline: one UPDATE per delivery row, 20 connections, no queue',
          perSecond: deliveries / baselineSeconds,
          seconds: baselineSeconds,
        },
      ],
    };
  } finally {
    await sql.end();
  }
}
