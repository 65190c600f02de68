// The keyed read through the 3-process harness (`pnpm cluster`'s, test/support/cluster.ts)
// against the same read on one of those processes alone, in the same run, on one PostgreSQL.
import autocannon from 'autocannon';
import { clusterAdmin, startCluster } from '../test/support/cluster.ts';

export interface ClusterReadRow {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** An application allowed to read the catalog, and a system to read, made through `url`. */
async function seed(url: string) {
  const login = await fetch(`${url}/api/auth-backend/custom/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: clusterAdmin.email, password: clusterAdmin.password }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const keyed = async (pluginId: string, body: unknown) => {
    const response = await fetch(`${url}/api/${pluginId}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: url },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${pluginId}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, any>;
  };
  const { createRole } = await keyed('auth', {
    createRole: { name: 'cluster-readers', accessRules: ['catalog.catalog.read'] },
  });
  const { createApplication } = await keyed('auth', { createApplication: { name: 'cluster' } });
  await keyed('auth', {
    updateApplication: {
      id: createApplication.application.id,
      roleIds: [...createApplication.application.roleIds, createRole.id],
    },
  });
  const { createSystem } = await keyed('catalog', { createSystem: { name: 'cluster-system' } });
  return { key: createApplication.secret as string, systemId: createSystem.id as string };
}

/**
 * Loads `keyed catalog.getSystem` with an API key through the proxy in front of three processes,
 * then against the first process's own address, each after a 2 s warm-up. Per-key budgets are
 * off (`API_KEY_RATE_LIMIT=0`) so neither row meets them; the processes log each request at
 * `info` (the harness waits for their `listening` line), alike in both rows.
 */
export async function clusterReadRows(
  databaseUrl: string,
  seconds: number,
  connections: number,
): Promise<ClusterReadRow[]> {
  const cluster = await startCluster({
    databaseUrl,
    size: 3,
    env: { API_KEY_RATE_LIMIT: '0' },
  });
  try {
    const { key, systemId } = await seed(cluster.url);
    const request = {
      method: 'POST' as const,
      path: '/api/catalog/',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ getSystem: { id: systemId } }),
    };
    const targets = [
      ['keyed catalog.getSystem, 3 processes behind the proxy', cluster.url],
      ['the same read on one of those processes alone', cluster.members[0]!.url],
    ] as const;
    const rows: ClusterReadRow[] = [];
    for (const [name, url] of targets) {
      await autocannon({ url, connections, duration: 2, requests: [request] });
      const result = await autocannon({ url, connections, duration: seconds, requests: [request] });
      rows.push({
        name,
        requests: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx + result.errors,
      });
    }
    return rows;
  } finally {
    await cluster.stop();
  }
}

export function printClusterReadRows(rows: ClusterReadRow[]) {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log('\nSeveral processes: the keyed read through the 3-process harness (PostgreSQL)');
  console.log(
    `${'row'.padEnd(56)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('non-2xx', 9)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(56)}${pad(Math.round(row.requests), 9)}${pad(row.p50, 8)}${pad(row.p99, 8)}${pad(row.non2xx, 9)}`,
    );
  }
  const [cluster, single] = rows;
  console.log(
    `  3 processes / 1 process: ${(cluster!.requests / single!.requests).toFixed(2)}x (same machine: the processes, the proxy and the load generator share its cores)`,
  );
}
