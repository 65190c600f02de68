import { z } from 'zod';

const instant = z.iso.datetime();

export const GetSchedulerStatusInputSchema = z.object({
  /** The window runs, lag and late starts are counted over, in minutes (1 to 60). Default 5. */
  windowMinutes: z.number().int().min(1).max(60).default(5),
});
export type GetSchedulerStatusInput = z.infer<typeof GetSchedulerStatusInputSchema>;

/** Percentiles of the lag (run start minus due time) of runs in the window; null with none. */
const LagSchema = z.object({ p50: z.number().nullable(), p99: z.number().nullable() });

/**
 * Percentiles of the time runs in the window waited for a connection slot to their target's
 * origin (scheduler pressure, not part of any check's latency or timeout); null with none.
 */
const QueueWaitSchema = z.object({ p50: z.number().nullable(), p99: z.number().nullable() });

export const SchedulerStatusSchema = z.object({
  at: instant,
  windowSeconds: z.number().int(),
  /** Runs due now that no process has claimed (a lapsed lease counts too). */
  dueBacklog: z.number().int(),
  /** The due time of the oldest of them. */
  oldestDueAt: instant.nullable(),
  runsPerSecond: z.number(),
  lagMs: LagSchema,
  queueWaitMs: QueueWaitSchema,
  /**
   * Runs given back in the window because they could not start in time (they waited past their
   * lease margin for their turn or a connection slot); each is retried, none is a failure.
   */
  lateStarts: z.number().int(),
  /** Each server process that ran checks, or gave runs back as late, in the window. */
  processes: z.array(
    z.object({
      processId: z.string(),
      runs: z.number().int(),
      runsPerSecond: z.number(),
      lagMs: LagSchema,
      queueWaitMs: QueueWaitSchema,
      lateStarts: z.number().int(),
      /** Its latest finished run in the window; null when it only gave runs back as late. */
      lastRunAt: instant.nullable(),
    }),
  ),
});
SchedulerStatusSchema.register(z.globalRegistry, { id: 'SchedulerStatus' });
export type SchedulerStatus = z.infer<typeof SchedulerStatusSchema>;
