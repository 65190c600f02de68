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

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const database = await createDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  poolSize: env.DATABASE_POOL_SIZE,
});
const checkline = await startCheckline({
  database,
  // The no-op channel mounts after the notification plugin; every bench server is a delivery worker.
  plugins: [...createPlugins(env, {}, [noopChannelPlugin]), memoryPlugin],
  logger,
  mountFirst: (app) => {
    mountBaselines(app, database.db);
    mountNotifyUsersBench(app, database);
  },
});
const http = await startHttpServer(checkline.app.fetch, { port: env.PORT, host: env.HOST }, logger);
console.log(JSON.stringify({ ready: http.url, database: database.kind }));

process.on('SIGTERM', async () => {
  await http.drain();
  await checkline.stop();
  await database.close();
  process.exit(0);
});
