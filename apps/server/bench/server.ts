// The server under benchmark: the real app plus the baseline routes, on the configured database.
import { createDatabase } from '@checkline/db';
import { loadEnv } from '../src/env.ts';
import { startHttpServer } from '../src/http-server.ts';
import { createLogger } from '../src/logger.ts';
import { createPlugins } from '../src/plugins.ts';
import { startCheckline } from '../src/start.ts';
import { mountBaselines } from './baselines.ts';
import { memoryPlugin } from './memory-plugin.ts';
import { mountNotifyUsersBench } from './notify-users.ts';
import { noopChannelPlugin } from './noop-channel.ts';
import { statuspageBench } from './statuspage.ts';

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const database = await createDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  poolSize: env.DATABASE_POOL_SIZE,
});
// Counts the statements the anonymous status-page reads send.
const statuspage = statuspageBench(database);
const checkline = await startCheckline({
  database: statuspage.handle,
  // The no-op channel mounts after the notification plugin; every bench server is a delivery worker.
  plugins: [
    // BENCH_RATE_LIMITS_IN_PROCESS=1: budgets in memory even on PostgreSQL (the shared-limits row's
    // baseline).
    ...createPlugins(
      env,
      { rateLimitsInProcess: process.env.BENCH_RATE_LIMITS_IN_PROCESS === '1' },
      [noopChannelPlugin],
    ),
    memoryPlugin,
  ],
  logger,
  mountFirst: (app) => {
    mountBaselines(app, database.db);
    statuspage.mount(app);
    mountNotifyUsersBench(app, database);
  },
});
const http = await startHttpServer(checkline.app.fetch, { port: env.PORT, host: env.HOST }, logger);
console.log(JSON.stringify({ ready: http.url, database: database.kind }));

async function shutDown() {
  await http.drain();
  await checkline.stop();
  await database.close();
}

process.on('SIGTERM', () => {
  shutDown().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
