import { pageInput, pageOf, timestampInput } from '@checkline/core/contract';
import { z } from 'zod';

const id = z.uuid();
const instant = z.iso.datetime();

export const healthStatuses = [
  'healthy',
  'degraded',
  'unhealthy',
  'unknown',
  'maintenance',
] as const;
/** `unknown`: no results yet; `maintenance`: a maintenance window covers the system now. */
export const HealthStatusSchema = z.enum(healthStatuses);
HealthStatusSchema.register(z.globalRegistry, { id: 'HealthStatus' });
export type HealthStatus = z.infer<typeof HealthStatusSchema>;

/** `warn`: the target works but is close to failing (a certificate about to expire). */
export const CheckOutcomeStatusSchema = z.enum(['pass', 'warn', 'fail']);

export const MIN_INTERVAL_SECONDS = 10;
export const MAX_INTERVAL_SECONDS = 24 * 60 * 60;

const intervalSeconds = z
  .number()
  .int()
  .min(MIN_INTERVAL_SECONDS, `The interval is at least ${MIN_INTERVAL_SECONDS} seconds`)
  .max(MAX_INTERVAL_SECONDS, `The interval is at most 24 hours (${MAX_INTERVAL_SECONDS} seconds)`);
const timeoutMs = z
  .number()
  .int()
  .min(100, 'The timeout is at least 100 ms')
  .max(120_000, 'The timeout is at most 120000 ms');
const MAX_ALERT_THRESHOLD = 20;
const alertThreshold = z
  .number()
  .int()
  .min(1, 'At least 1 run')
  .max(MAX_ALERT_THRESHOLD, `At most ${MAX_ALERT_THRESHOLD} runs`);
const MIN_RETRY_INTERVAL_SECONDS = 5;
const retryIntervalSeconds = z
  .number()
  .int()
  .min(
    MIN_RETRY_INTERVAL_SECONDS,
    `The retry interval is at least ${MIN_RETRY_INTERVAL_SECONDS} seconds`,
  );
const name = z.string().trim().min(1, 'Name must not be empty').max(200);
const typeId = z.string().trim().min(1).max(200);
/** Checked against the type's own schema by the server; its shape depends on the type. */
const config = z.record(z.string(), z.unknown());

export const HealthCheckSchema = z.object({
  id,
  systemId: id,
  name: z.string(),
  /** Qualified type id, `{ownerPluginId}.{id}`, e.g. `healthcheck.http`. */
  type: z.string(),
  config,
  intervalSeconds: z.number().int(),
  timeoutMs: z.number().int(),
  failuresBeforeAlert: z.number().int(),
  recoveriesBeforeResolve: z.number().int(),
  /** Seconds between runs while a change waits for its threshold; null: the interval. */
  retryIntervalSeconds: z.number().int().nullable(),
  nextRunAt: instant,
  createdAt: instant,
  updatedAt: instant,
});
HealthCheckSchema.register(z.globalRegistry, { id: 'HealthCheck' });
export type HealthCheck = z.infer<typeof HealthCheckSchema>;

export const HealthCheckResultSchema = z.object({
  id,
  healthCheckId: id,
  status: CheckOutcomeStatusSchema,
  latencyMs: z.number().int(),
  message: z.string(),
  /** The scheduled due time this result answers; null for a run asked for by hand. */
  dueAt: instant.nullable(),
  checkedAt: instant,
  /** How late the run started (its start minus its due time), in ms; null for a run by hand. */
  lagMs: z.number().int().nullable(),
  /**
   * How long the run waited in Checkline's own queue for a connection slot to the target's
   * origin, in ms (scheduler pressure); not part of `latencyMs` nor of the timeout. Null for
   * results written before it was recorded.
   */
  queueWaitMs: z.number().int().nullable(),
  /**
   * The outcome had not reached its check's threshold (`failuresBeforeAlert` failures or
   * `recoveriesBeforeResolve` recoveries in a row): the system's status did not count it.
   */
  pending: z.boolean(),
});
HealthCheckResultSchema.register(z.globalRegistry, { id: 'HealthCheckResult' });
export type HealthCheckResult = z.infer<typeof HealthCheckResultSchema>;

export const HealthCheckTypeInfoSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** JSON Schema of the type's config, for forms. */
  configSchema: z.record(z.string(), z.unknown()),
});
export type HealthCheckTypeInfo = z.infer<typeof HealthCheckTypeInfoSchema>;

export const GetHealthChecksInputSchema = z.object({ systemId: id.optional(), ...pageInput });
export type GetHealthChecksInput = z.infer<typeof GetHealthChecksInputSchema>;

export const CreateHealthCheckInputSchema = z.object({
  systemId: id,
  name,
  type: typeId,
  config: config.default({}),
  /** Seconds between runs, 10 s to 24 h. Default 60. */
  intervalSeconds: intervalSeconds.default(60),
  /** Milliseconds a run may take; shorter than the interval. Default 10 000. */
  timeoutMs: timeoutMs.default(10_000),
  /**
   * Failed runs in a row before the check counts as failing, 1 to 20. Default 1: checks made
   * before thresholds existed alert as they did.
   */
  failuresBeforeAlert: alertThreshold.default(1),
  /** Working runs in a row before a failing check counts as working again, 1 to 20. Default 1. */
  recoveriesBeforeResolve: alertThreshold.default(1),
  /** Seconds to the next run while a change waits for its threshold (at most the interval); omitted: the interval. */
  retryIntervalSeconds: retryIntervalSeconds.optional(),
});
export type CreateHealthCheckInput = z.infer<typeof CreateHealthCheckInputSchema>;

/** A check stays with its system; `config` is required when `type` changes. */
export const UpdateHealthCheckInputSchema = z.object({
  id,
  name: name.optional(),
  type: typeId.optional(),
  config: config.optional(),
  intervalSeconds: intervalSeconds.optional(),
  timeoutMs: timeoutMs.optional(),
  failuresBeforeAlert: alertThreshold.optional(),
  recoveriesBeforeResolve: alertThreshold.optional(),
  /** `null` goes back to the interval. */
  retryIntervalSeconds: retryIntervalSeconds.nullable().optional(),
});
export type UpdateHealthCheckInput = z.infer<typeof UpdateHealthCheckInputSchema>;

export const IdInputSchema = z.object({ id });
export const DeletedSchema = z.object({ id, deleted: z.literal(true) });

export const HealthCheckPageSchema = pageOf('healthChecks', HealthCheckSchema);
export type HealthCheckPage = z.infer<typeof HealthCheckPageSchema>;

export const GetHistoryInputSchema = z.object({
  healthCheckId: id,
  /** Only results checked strictly before this instant (where to start reading back from). */
  before: timestampInput().optional(),
  ...pageInput,
});
HealthCheckTypeInfoSchema.register(z.globalRegistry, { id: 'HealthCheckType' });
export type GetHistoryInput = z.infer<typeof GetHistoryInputSchema>;

export const HistorySchema = pageOf('results', HealthCheckResultSchema);
HistorySchema.register(z.globalRegistry, { id: 'HealthCheckHistory' });
export type History = z.infer<typeof HistorySchema>;

export const SystemHealthStatusSchema = z.object({
  systemId: id,
  status: HealthStatusSchema,
  checks: z.array(
    z.object({
      healthCheckId: id,
      name: z.string(),
      /**
       * The outcome the system's status counts: the latest one that reached its threshold;
       * null until one has. It differs from `latest.status` while `latest.pending`.
       */
      alertStatus: CheckOutcomeStatusSchema.nullable(),
      latest: HealthCheckResultSchema.nullable(),
      /**
       * The check runs later than its interval: its latest run started more than an interval
       * after its due time, or a due time has waited longer than an interval unclaimed.
       */
      late: z.boolean(),
    }),
  ),
});
SystemHealthStatusSchema.register(z.globalRegistry, { id: 'SystemHealthStatus' });
export type SystemHealthStatus = z.infer<typeof SystemHealthStatusSchema>;

export const GetSystemHealthStatusInputSchema = z.object({ systemId: id });

export const MAX_BULK_SYSTEMS = 500;
export const GetBulkSystemHealthStatusInputSchema = z.object({
  systemIds: z.array(id).max(MAX_BULK_SYSTEMS, `At most ${MAX_BULK_SYSTEMS} systems per call`),
});

/** A check whose latest result was not healthy when its system's status changed. */
export const FailingCheckSchema = z.object({
  healthCheckId: id,
  name: z.string(),
  type: z.string(),
  status: CheckOutcomeStatusSchema,
  message: z.string(),
  latencyMs: z.number().int(),
  checkedAt: instant,
});
export type FailingCheck = z.infer<typeof FailingCheckSchema>;

export const HealthStatusChangeSchema = z.object({
  systemId: id,
  previous: HealthStatusSchema,
  current: HealthStatusSchema,
  at: instant,
  /** When the previous status began; absent in changes published before it was kept. */
  previousSince: instant.optional(),
  /** The checks whose latest result is not healthy, worst first; absent in older changes. */
  failingChecks: z.array(FailingCheckSchema).optional(),
  /**
   * Set when the change happened while a system this one depends on was unhealthy (or is the
   * recovery from such a change): notifications stay quiet about it.
   */
  causedBy: z.object({ systemId: id }).optional(),
});
export type HealthStatusChange = z.infer<typeof HealthStatusChangeSchema>;

/** A check as saving it answers: a check that became a heartbeat check carries its new token, this once. */
export const SavedHealthCheckSchema = HealthCheckSchema.extend({
  /** Only for a heartbeat check, and only in this answer: it is stored hashed. */
  heartbeatToken: z.string().optional(),
});
SavedHealthCheckSchema.register(z.globalRegistry, { id: 'SavedHealthCheck' });
export type SavedHealthCheck = z.infer<typeof SavedHealthCheckSchema>;

export const HeartbeatTokenSchema = z.object({
  healthCheckId: id,
  /** Shown this once; calls to `POST /api/healthcheck/heartbeat/{token}` record beats. */
  heartbeatToken: z.string(),
});

const MAX_DEPENDENCIES = 50;
export const SetSystemDependenciesInputSchema = z.object({
  systemId: id,
  /** The systems it depends on, replacing the ones before; `[]` for none. */
  dependsOn: z
    .array(id)
    .max(MAX_DEPENDENCIES, `At most ${MAX_DEPENDENCIES} dependencies per system`),
});
export type SetSystemDependenciesInput = z.infer<typeof SetSystemDependenciesInputSchema>;

export const SystemDependenciesSchema = z.object({ systemId: id, dependsOn: z.array(id) });
SystemDependenciesSchema.register(z.globalRegistry, { id: 'SystemDependencies' });
