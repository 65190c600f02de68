import { parseArgs } from 'node:util';
import { clusterAdmin, startCluster } from '../test/support/cluster.ts';

/*
 * `pnpm cluster [--size N] [--port P]`: N server processes (default 3) on the PostgreSQL database
 * of DATABASE_URL behind a round-robin proxy on loopback, until Ctrl-C.
 */
const { values } = parseArgs({
  options: { size: { type: 'string', default: '3' }, port: { type: 'string', default: '0' } },
});
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('pnpm cluster needs DATABASE_URL: the PostgreSQL database every process shares');
  process.exit(2);
}
const size = Number(values.size);
if (!Number.isInteger(size) || size < 1 || size > 16) {
  console.error('--size must be a whole number from 1 to 16');
  process.exit(2);
}
/** What the operator's environment says for every process (the rest is the harness's). */
const passed = ['NODE_ENV', 'LOG_LEVEL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'ENCRYPTION_KEY'];
const env = Object.fromEntries(
  passed.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
);
const cluster = await startCluster({
  databaseUrl,
  size,
  port: Number(values.port),
  env: { NODE_ENV: 'development', ...env },
});
console.log(`proxy (round-robin): ${cluster.url}`);
for (const [index, member] of cluster.members.entries()) {
  console.log(`process ${index + 1}: ${member.url} (pid ${member.process.pid})`);
}
const adminEmail = env.ADMIN_EMAIL ?? clusterAdmin.email;
const adminPassword = env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : clusterAdmin.password;
console.log(`first admin on an empty database: ${adminEmail} / ${adminPassword}`);
console.log('Ctrl-C stops them all');

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  console.log('stopping…');
  void cluster.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
