import { readFileSync, writeFileSync } from 'node:fs';
import { createDatabase } from '@checkline/db';
import { loadEnv } from './env.ts';
import { startHttpServer } from './http-server.ts';
import { createLogger } from './logger.ts';
import { createPlugins } from './plugins.ts';
import {
  generateClient,
  generatedClientFolder,
  openapiJsonFile,
  serializeOpenApi,
} from './openapi-files.ts';
import { migrateAll, startCheckline } from './start.ts';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

async function start() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await createDatabase({
    url: env.DATABASE_URL,
    poolSize: env.DATABASE_POOL_SIZE,
    dataDir: env.DATA_DIR,
    log: (message) => logger.info(message),
  });
  const plugins = createPlugins(env);
  const checkline = await startCheckline({
    database,
    plugins,
    logger,
    version,
    baseUrl: env.BASE_URL,
  });
  const http = await startHttpServer(
    checkline.app.fetch,
    { port: env.PORT, host: env.HOST },
    logger,
  );
  logger.info({ port: http.port, host: env.HOST, baseUrl: env.BASE_URL }, 'listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    await http.drain();
    await checkline.stop();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function migrate() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await createDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    log: (m) => logger.info(m),
  });
  const plugins = createPlugins(env);
  await migrateAll(database, plugins);
  logger.info({ plugins: plugins.map((plugin) => plugin.id) }, 'migrations applied');
  await database.close();
}

/**
 * Writes the document a server with the default `BASE_URL` serves: the plugins are started on a
 * throwaway in-memory database, so what they register at start-up (login strategies) is in it.
 */
async function writeOpenApi() {
  const env = loadEnv({ LOG_LEVEL: 'error' });
  const database = await createDatabase({ dataDir: 'memory://openapi' });
  const plugins = createPlugins(env);
  const logger = createLogger(env.LOG_LEVEL);
  const checkline = await startCheckline({ database, plugins, logger, version });
  await checkline.stop();
  await database.close();
  writeFileSync(openapiJsonFile, serializeOpenApi(checkline.openapi));
  await generateClient(checkline.openapi, generatedClientFolder);
  console.log(`wrote ${openapiJsonFile.pathname} and ${generatedClientFolder.pathname}`);
}

const commands: Record<string, () => Promise<void>> = { start, migrate, openapi: writeOpenApi };
const command = commands[process.argv[2] ?? 'start'];
if (!command) {
  console.error(`usage: main.ts [${Object.keys(commands).join('|')}]`);
  process.exit(2);
}
command().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
