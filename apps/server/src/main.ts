import { readFileSync, writeFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createDatabase } from '@checkline/db';
import { loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { generateOpenApiDocument } from './http/openapi.ts';
import { plugins } from './plugins.ts';
import { migrateAll, startCheckline } from './start.ts';

const openapiFile = new URL('../openapi.json', import.meta.url);
const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function start() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await createDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    log: (message) => logger.info(message),
  });
  const checkline = await startCheckline({ database, plugins, logger, version });
  const server = serve({ fetch: checkline.app.fetch, port: env.PORT, hostname: env.HOST }, (info) =>
    logger.info({ port: info.port, host: env.HOST, baseUrl: env.BASE_URL }, 'listening'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    const force = setTimeout(() => {
      logger.warn('drain timed out; closing open connections');
      if ('closeAllConnections' in server) server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(async () => {
      await checkline.stop();
      await database.close();
      logger.info('stopped');
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

async function migrate() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const database = await createDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR, log: (m) => logger.info(m) });
  await migrateAll(database, plugins);
  logger.info({ plugins: plugins.map((plugin) => plugin.id) }, 'migrations applied');
  await database.close();
}

async function writeOpenApi() {
  const document = await generateOpenApiDocument(plugins, { version });
  writeFileSync(openapiFile, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${openapiFile.pathname}`);
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
