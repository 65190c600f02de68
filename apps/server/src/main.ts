import { readFileSync, writeFileSync } from 'node:fs';
import {
  createDatabase,
  DatabaseDiskFullError,
  DataFolderLockedError,
  DISK_FULL_MESSAGE,
  isDiskFull,
  redactUrl,
  rootCauseOf,
  waitForDatabase,
} from '@checkline/db';
import { rotateHealthCheckSecrets } from '@checkline/healthcheck';
import { rotateSecrets } from '@checkline/notification';
import { encryptionKeyring, pageCursorSeal } from './encryption-keyring.ts';
import { InvalidEnvError, loadEnv } from './env.ts';
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
  fatalLogger = logger;
  // Signals are handled from the first moment: a stop while waiting for the database is clean.
  const waiting = new AbortController();
  let stopRequested: string | undefined;
  // Until the server listens there is nothing to drain: the signal only stops the waiting.
  let shutdown = async (_signal: string) => {};
  const onSignal = (signal: string) => {
    if (stopRequested) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopRequested = signal;
    waiting.abort(new Error(`stopped by ${signal} during start-up`));
    void shutdown(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  const database = await createDatabase({
    url: env.DATABASE_URL,
    poolSize: env.DATABASE_POOL_SIZE,
    dataDir: env.DATA_DIR,
    log: (message) => logger.info(message),
  });
  const where = env.DATABASE_URL ? redactUrl(env.DATABASE_URL) : env.DATA_DIR;
  await waitForDatabase(() => database.ping(), {
    signal: waiting.signal,
    log: ({ attempt, retryInMs, reason }) =>
      logger.warn(
        { database: where, attempt, retryInMs },
        `waiting for the database at ${where} (${reason}); trying again in ${retryInMs / 1_000} s`,
      ),
  }).catch(async (error: unknown) => {
    await database.close().catch(() => {});
    if (!waiting.signal.aborted) throw error;
    logger.info({ signal: stopRequested }, 'stopped before the database answered');
    process.exit(0);
  });
  const keyring = encryptionKeyring(env, logger);
  const plugins = createPlugins(env, {}, [], { keyring });
  const checkline = await startCheckline({
    database,
    plugins,
    cursors: pageCursorSeal(keyring),
    logger,
    version,
    baseUrl: env.BASE_URL,
    frontendUrl: env.FRONTEND_URL,
    webDistDir: env.WEB_DIST_DIR,
    metricsToken: env.METRICS_TOKEN,
  });
  const http = await startHttpServer(
    checkline.app.fetch,
    { port: env.PORT, host: env.HOST, drainTimeoutMs: env.SHUTDOWN_TIMEOUT_MS },
    logger,
  );
  logger.info({ port: http.port, host: env.HOST, baseUrl: env.BASE_URL }, 'listening');

  shutdown = async (signal: string) => {
    logger.info({ signal, timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, 'draining in-flight requests');
    // The drain closes open connections at the deadline; closing the rest gets a little more,
    // and past that the process exits anyway (a statement stuck in the database must not keep
    // it alive). Deliveries being sent stop being claimed now and are given their send timeout
    // to finish and be recorded: one cut off would be sent again after its lease.
    const giveUp = setTimeout(
      () => {
        logger.error('shutdown deadline passed; exiting without a clean close');
        process.exit(1);
      },
      Math.max(env.SHUTDOWN_TIMEOUT_MS, env.DELIVERY_SEND_TIMEOUT_MS) + closeGraceMs,
    );
    giveUp.unref();
    checkline.drain();
    await http.drain();
    await checkline.stop();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  if (stopRequested) await shutdown(stopRequested);
}

/** How long closing the database and background work may take once requests are drained. */
const closeGraceMs = 5_000;

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
 * Re-encrypts every stored secret under the current `ENCRYPTION_KEY` (older keys named in
 * `ENCRYPTION_KEYS_OLD`); run it with the server stopped or running. Exits 1 when some row holds
 * a value no key decrypts (each one logged).
 */
async function rotateSecretsCommand() {
  const env = loadEnv();
  const logger = createLogger(env.LOG_LEVEL);
  fatalLogger = logger;
  const keyring = encryptionKeyring(env, logger);
  const database = await createDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    log: (m) => logger.info(m),
  });
  try {
    await migrateAll(database, createPlugins(env));
    // Each plugin rotates its own tables: notification's settings and tokens, healthcheck's
    // check configs (the postgres password).
    const notification = await rotateSecrets(database.db, keyring, logger);
    const healthcheck = await rotateHealthCheckSecrets(database.db, keyring, logger);
    logger.info({ keyId: keyring.currentKeyId, notification, healthcheck }, 'secrets:rotate done');
    const failed = notification.failed + healthcheck.failed;
    if (failed > 0) {
      throw new Error(
        `${failed} rows hold secrets that no key decrypts (notification ${notification.failed}, healthcheck ${healthcheck.failed}); add the key they were written with to ENCRYPTION_KEYS_OLD`,
      );
    }
  } finally {
    await database.close();
  }
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

/** Set once the configuration is read; a failure before that is logged at the default level. */
let fatalLogger: ReturnType<typeof createLogger> | undefined;

/** A failure to start is one JSON line that says what went wrong in words, then exit code 1. */
function failed(error: unknown): never {
  const logger = fatalLogger ?? createLogger('info');
  const text = error instanceof Error ? error.message : String(error);
  // A multi-line message (the list of invalid variables) reads as one sentence.
  const message = diskFullAtStart(error) ?? text.replace(/:\n\s*/, ': ').replaceAll(/\n\s*/g, '; ');
  const expected =
    error instanceof DataFolderLockedError ||
    error instanceof InvalidEnvError ||
    error instanceof DatabaseDiskFullError;
  logger.fatal(expected ? {} : { err: error }, `cannot start: ${message}`);
  process.exit(1);
}

/** A full disk met while migrating, said in words with the database's own reason. */
function diskFullAtStart(error: unknown): string | undefined {
  if (error instanceof DatabaseDiskFullError || !isDiskFull(error)) return undefined;
  const { code, message } = rootCauseOf(error);
  return `${DISK_FULL_MESSAGE} (${code === undefined ? '' : `SQLSTATE ${code}: `}${message})`;
}

const commands: Record<string, () => Promise<void>> = {
  start,
  migrate,
  openapi: writeOpenApi,
  'secrets:rotate': rotateSecretsCommand,
};
const command = commands[process.argv[2] ?? 'start'];
if (!command) {
  console.error(`usage: main.ts [${Object.keys(commands).join('|')}]`);
  process.exit(2);
}
command().catch(failed);
