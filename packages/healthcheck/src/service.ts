import { randomUUID } from 'node:crypto';
import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { BoundSecretFields } from '@checkline/core';
import { badRequest, conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared, uniqueOr } from '@checkline/db';
import { and, eq, lt, sql } from 'drizzle-orm';
import { healthChecks, results } from './db/schema.ts';
import type {
  CreateHealthCheckInput,
  GetHealthChecksInput,
  GetHistoryInput,
  HealthCheck,
  HealthCheckPage,
  HealthCheckResult,
  History,
  UpdateHealthCheckInput,
} from './schemas.ts';
import { keepStoredSecrets, publicConfig } from './public-config.ts';

export type HealthCheckRow = typeof healthChecks.$inferSelect;
type ResultRow = typeof results.$inferSelect;

/**
 * Validates a config against a type (throws BAD_REQUEST) and seals its secrets for the check
 * `checkId`; supplied by the caller's registry.
 */
export type ConfigParser = (
  typeId: string,
  config: unknown,
  checkId: string,
) => Promise<Record<string, unknown>>;

function toHealthCheck(row: HealthCheckRow): HealthCheck {
  return {
    id: row.id,
    systemId: row.systemId,
    name: row.name,
    type: row.type,
    config: publicConfig(row.config),
    intervalSeconds: row.intervalSeconds,
    timeoutMs: row.timeoutMs,
    failuresBeforeAlert: row.failuresBeforeAlert,
    recoveriesBeforeResolve: row.recoveriesBeforeResolve,
    retryIntervalSeconds: row.retryIntervalSeconds,
    nextRunAt: row.nextRunAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toResult(row: Omit<ResultRow, 'processId'>): HealthCheckResult {
  return {
    id: row.id,
    healthCheckId: row.healthCheckId,
    status: row.status,
    latencyMs: row.latencyMs,
    message: row.message,
    dueAt: row.dueAt?.toISOString() ?? null,
    checkedAt: row.checkedAt.toISOString(),
    lagMs: row.lagMs,
    queueWaitMs: row.queueWaitMs,
    pending: row.pending,
  };
}

const nameTaken = (name: string) =>
  conflict(`A health check named "${name}" already exists for this system`);

/** A run that may outlast its interval would always collide with its own next run. */
function assertTimeoutFitsInterval(timeoutMs: number, intervalSeconds: number) {
  if (timeoutMs >= intervalSeconds * 1_000) {
    throw badRequest('The timeout must be shorter than the interval', [
      { path: 'timeoutMs', message: `Must be below ${intervalSeconds * 1_000} ms (the interval)` },
    ]);
  }
}

/** Quick re-checks come sooner than the next regular run, or they are no quicker. */
function assertRetryFitsInterval(retryIntervalSeconds: number | null, intervalSeconds: number) {
  if (retryIntervalSeconds !== null && retryIntervalSeconds > intervalSeconds) {
    throw badRequest('The retry interval must not exceed the interval', [
      {
        path: 'retryIntervalSeconds',
        message: `Must be at most ${intervalSeconds} s (the interval)`,
      },
    ]);
  }
}

const selectCheckById = prepared((db) =>
  db
    .select()
    .from(healthChecks)
    .where(eq(healthChecks.id, sql.placeholder('id')))
    .prepare('healthcheck_check_by_id'),
);

// A check's name is unique within its system, so (system, name) orders checks totally.
const checkPages = keysetPages(
  'healthcheck.checks',
  keysetOrder([healthChecks.systemId, healthChecks.name]),
);

/** A page of checks by system and name, of those `scope` may see, optionally of one system. */
export async function listHealthChecks(
  db: Database,
  input: GetHealthChecksInput,
  scope: PageScope,
): Promise<HealthCheckPage> {
  const where =
    input.systemId === undefined ? undefined : eq(healthChecks.systemId, input.systemId);
  const page = await checkPages.read(db, healthChecks, { ...input, where }, scope, (rows) =>
    rows.map(toHealthCheck),
  );
  return { healthChecks: page.items, nextCursor: page.nextCursor };
}

export async function getHealthCheckRow(db: Database, id: string): Promise<HealthCheckRow> {
  const [row] = await selectCheckById(db).execute({ id });
  if (!row) throw notFound('Health check', id);
  return row;
}

export async function createHealthCheck(
  db: Database,
  input: CreateHealthCheckInput,
  options: { now: Date; parseConfig: ConfigParser; createdBy?: string },
): Promise<HealthCheck> {
  assertTimeoutFitsInterval(input.timeoutMs, input.intervalSeconds);
  assertRetryFitsInterval(input.retryIntervalSeconds ?? null, input.intervalSeconds);
  // The id is chosen here, not by the database: sealed secrets name their row.
  const id = randomUUID();
  const config = await options.parseConfig(input.type, input.config, id);
  const [row] = await db
    .insert(healthChecks)
    .values({
      id,
      systemId: input.systemId,
      name: input.name,
      type: input.type,
      config,
      intervalSeconds: input.intervalSeconds,
      timeoutMs: input.timeoutMs,
      failuresBeforeAlert: input.failuresBeforeAlert,
      recoveriesBeforeResolve: input.recoveriesBeforeResolve,
      retryIntervalSeconds: input.retryIntervalSeconds ?? null,
      nextRunAt: options.now,
      createdBy: options.createdBy ?? null,
      createdAt: options.now,
      updatedAt: options.now,
    })
    .onConflictDoNothing({ target: [healthChecks.systemId, healthChecks.name] })
    .returning();
  if (!row) throw nameTaken(input.name);
  return toHealthCheck(row);
}

export async function updateHealthCheck(
  db: Database,
  input: UpdateHealthCheckInput,
  options: {
    now: Date;
    parseConfig: ConfigParser;
    /** The secrets and destinations a type's config marks. */
    secretFieldsOf: (typeId: string) => BoundSecretFields;
  },
): Promise<HealthCheck> {
  const { id, ...changes } = input;
  const [current] = await db
    .select()
    .from(healthChecks)
    .where(eq(healthChecks.id, id))
    .for('update');
  if (!current) throw notFound('Health check', id);
  const type = changes.type ?? current.type;
  if (type !== current.type && changes.config === undefined) {
    throw badRequest('A new type needs its config', [
      { path: 'config', message: `Required when the type changes to ${type}` },
    ]);
  }
  const sentConfig =
    type === current.type
      ? keepStoredSecrets(changes.config, current.config, options.secretFieldsOf(type))
      : changes.config;
  const config =
    changes.config === undefined ? current.config : await options.parseConfig(type, sentConfig, id);
  const intervalSeconds = changes.intervalSeconds ?? current.intervalSeconds;
  const timeoutMs = changes.timeoutMs ?? current.timeoutMs;
  assertTimeoutFitsInterval(timeoutMs, intervalSeconds);
  const retryIntervalSeconds =
    changes.retryIntervalSeconds === undefined
      ? current.retryIntervalSeconds
      : changes.retryIntervalSeconds;
  assertRetryFitsInterval(retryIntervalSeconds, intervalSeconds);
  // A check whose behaviour changed runs again soon rather than at its old cadence.
  const behaviourChanged = [
    changes.type,
    changes.config,
    changes.intervalSeconds,
    changes.timeoutMs,
  ].some((value) => value !== undefined);
  const [row] = await uniqueOr(
    () =>
      db
        .update(healthChecks)
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          type,
          config,
          intervalSeconds,
          timeoutMs,
          retryIntervalSeconds,
          ...(changes.failuresBeforeAlert !== undefined && {
            failuresBeforeAlert: changes.failuresBeforeAlert,
          }),
          ...(changes.recoveriesBeforeResolve !== undefined && {
            recoveriesBeforeResolve: changes.recoveriesBeforeResolve,
          }),
          ...(behaviourChanged && { nextRunAt: options.now }),
          updatedAt: options.now,
        })
        .where(eq(healthChecks.id, id))
        .returning(),
    () => nameTaken(changes.name ?? current.name),
  );
  return toHealthCheck(row!);
}

export async function deleteHealthCheck(db: Database, id: string) {
  const [row] = await db
    .delete(healthChecks)
    .where(eq(healthChecks.id, id))
    .returning({ id: healthChecks.id, systemId: healthChecks.systemId });
  if (!row) throw notFound('Health check', id);
  return row;
}

/** Deletes every check of a system (with their results); the number deleted. */
export async function deleteChecksOfSystem(db: Database, systemId: string): Promise<number> {
  const rows = await db
    .delete(healthChecks)
    .where(eq(healthChecks.systemId, systemId))
    .returning({ id: healthChecks.id });
  return rows.length;
}

const historyPages = keysetPages(
  'healthcheck.history',
  keysetOrder([results.checkedAt, results.id], 'desc'),
);

/** A page of a check's results, newest first, optionally only those checked before `before`. */
export async function listHistory(
  db: Database,
  healthCheckId: string,
  input: Omit<GetHistoryInput, 'healthCheckId'>,
  scope: PageScope,
): Promise<History> {
  const where = and(
    eq(results.healthCheckId, healthCheckId),
    input.before === undefined ? undefined : lt(results.checkedAt, new Date(input.before)),
  );
  const page = await historyPages.read(db, results, { ...input, where }, scope, (rows) =>
    rows.map(toResult),
  );
  return { results: page.items, nextCursor: page.nextCursor };
}
