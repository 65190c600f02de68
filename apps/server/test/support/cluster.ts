import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestPostgres } from '@checkline/db/testing';
import { createTestPostgres } from '@checkline/db/testing';
import { createProxyServer } from 'http-proxy-3';
import { afterAll, beforeAll } from 'vitest';
import type { ServerProcess } from './server-process.ts';
import { startServerProcess } from './server-process.ts';

export interface ClusterOptions {
  /** One PostgreSQL database for every process. */
  databaseUrl: string;
  /** How many server processes. Default 3. */
  size?: number;
  /** The proxy's port on 127.0.0.1; one the system picks when 0 or absent. */
  port?: number;
  /** More environment for every process (the same for all). */
  env?: Record<string, string>;
  /** How long a process may take to start listening. Default 60 s. */
  startTimeoutMs?: number;
}

interface ClusterMember {
  /** The process's own address, bypassing the proxy. */
  url: string;
  process: ServerProcess;
}

export const clusterAdmin = { email: 'admin@example.com', password: 'cluster-admin-password' };

/**
 * N server processes (`src/main.ts start`) on one PostgreSQL database behind a round-robin proxy
 * on loopback, as several instances behind a load balancer. The first process starts alone (it
 * migrates and creates the first admin); the rest then start together. The proxy skips processes
 * that have exited, so the survivors keep serving when one is killed.
 */
export async function startCluster(options: ClusterOptions) {
  const size = options.size ?? 3;
  const members: ClusterMember[] = [];
  const proxy = createProxyServer({});
  let next = 0;
  const server = createServer((request, response) => {
    const alive = members.filter((member) => member.process.alive());
    const member = alive[next++ % Math.max(alive.length, 1)];
    if (!member) {
      response.writeHead(502).end('no server process is running');
      return;
    }
    proxy.web(request, response, { target: member.url }, () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
  });
  // The proxy holds its port from the start, and each process binds a port of the system's
  // choosing and logs it: a port found free and bound only later (after the processes' start,
  // slow on a busy machine) may be taken meanwhile by another test file.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const shared = {
    DATABASE_URL: options.databaseUrl,
    BASE_URL: publicUrl,
    ADMIN_EMAIL: clusterAdmin.email,
    ADMIN_PASSWORD: clusterAdmin.password,
    // Every process must read what the others encrypted.
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_POOL_SIZE: '4',
    ...options.env,
  };
  const started: ServerProcess[] = [];
  const startMember = async () => {
    const process = startServerProcess({ ...shared, PORT: '0' });
    started.push(process);
    const listening = await process.waitForLog(
      (line) => line.msg === 'listening',
      options.startTimeoutMs ?? 60_000,
    );
    const member = { url: `http://127.0.0.1:${String(listening.port)}`, process };
    members.push(member);
    return member;
  };
  try {
    await startMember();
    await Promise.all(Array.from({ length: size - 1 }, startMember));
  } catch (error) {
    server.close();
    await Promise.all(started.map((process) => process.dispose()));
    throw error;
  }

  return {
    /** The proxy's address: requests go to the running processes in turn. */
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    members,
    /** Stops the proxy and every process (SIGTERM, then SIGKILL past 15 s). */
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.close();
      await Promise.all(members.map((member) => member.process.dispose()));
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

/** Signs a person in through the proxy; the headers a browser would send after. */
export async function clusterSession(cluster: Cluster, email: string, password: string) {
  const login = await fetch(`${cluster.url}/api/auth-backend/custom/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
    signal: AbortSignal.timeout(10_000),
  });
  const cookie = /checkline_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`sign-in failed: ${login.status}`);
  return { cookie, origin: cluster.url };
}

/** Signs the cluster's admin in through the proxy. */
export const clusterAdminSession = (cluster: Cluster) =>
  clusterSession(cluster, clusterAdmin.email, clusterAdmin.password);

/**
 * A database of its own and a cluster on it for the calling file: started before its tests (so
 * before the file's own `beforeAll`) and stopped after them. Health checks may ask loopback
 * targets, which is where tests' targets listen.
 */
export function clusterPerFile(options: Omit<ClusterOptions, 'databaseUrl'>) {
  const fixture = {} as { database: TestPostgres; cluster: Cluster };
  beforeAll(async () => {
    fixture.database = await createTestPostgres();
    fixture.cluster = await startCluster({
      ...options,
      databaseUrl: fixture.database.url,
      env: { CHECK_TARGETS_ALLOW: '127.0.0.0/8', ...options.env },
    });
  }, 180_000);
  afterAll(async () => {
    await fixture.cluster?.stop();
    await fixture.database?.drop();
  }, 60_000);
  return fixture;
}
