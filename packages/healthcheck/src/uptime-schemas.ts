import { z } from 'zod';

const uptimeWindows = ['24h', '7d', '30d', '90d'] as const;
const UptimeWindowSchema = z.enum(uptimeWindows);
export type UptimeWindow = z.infer<typeof UptimeWindowSchema>;

export const MAX_UPTIME_IDS = 500;
const ids = z
  .array(z.uuid())
  .max(MAX_UPTIME_IDS, `At most ${MAX_UPTIME_IDS} ids per call`)
  .optional();

export const GetUptimeInputSchema = z
  .object({
    /** Every check of these systems, and each system as a whole. */
    systemIds: ids,
    /** These checks. */
    healthCheckIds: ids,
    windows: z
      .array(UptimeWindowSchema)
      .min(1)
      .max(4)
      .default([...uptimeWindows]),
  })
  .refine((input) => input.systemIds !== undefined || input.healthCheckIds !== undefined, {
    message: 'Give systemIds or healthCheckIds',
    path: ['systemIds'],
  });
export type GetUptimeInput = z.infer<typeof GetUptimeInputSchema>;

const UptimeFiguresSchema = z.object({
  window: UptimeWindowSchema,
  /** Share of the checked time found passing (each scheduled run stands for its interval), 0-100; null with no scheduled run. */
  uptimePercent: z.number().nullable(),
  runs: z.number().int(),
  failures: z.number().int(),
  /** Minutes found failing. */
  downMinutes: z.number(),
  meanLatencyMs: z.number().nullable(),
  /** From fixed latency buckets: the upper edge of the bucket holding the 95th percentile. */
  p95LatencyMs: z.number().nullable(),
});
UptimeFiguresSchema.register(z.globalRegistry, { id: 'UptimeFigures' });
export type UptimeFigures = z.infer<typeof UptimeFiguresSchema>;

export const UptimeSchema = z.object({
  /** The checks asked for, or every check of the systems asked for. */
  checks: z.array(
    z.object({
      healthCheckId: z.uuid(),
      systemId: z.uuid(),
      windows: z.array(UptimeFiguresSchema),
    }),
  ),
  /** Each system asked for by `systemIds`, its checks taken together, in the order asked. */
  systems: z.array(z.object({ systemId: z.uuid(), windows: z.array(UptimeFiguresSchema) })),
});
UptimeSchema.register(z.globalRegistry, { id: 'Uptime' });
export type Uptime = z.infer<typeof UptimeSchema>;

export const GetRollupsInputSchema = z.object({
  healthCheckId: z.uuid(),
  /** 24h and 7d answer hourly buckets, 30d and 90d daily ones (UTC). */
  window: UptimeWindowSchema,
});
export type GetRollupsInput = z.infer<typeof GetRollupsInputSchema>;

const RollupBucketSchema = z.object({
  bucketStart: z.iso.datetime(),
  runs: z.number().int(),
  failures: z.number().int(),
  /** Share of the bucket's checked time found passing, 0-100; null when nothing was scheduled. */
  uptimePercent: z.number().nullable(),
  meanLatencyMs: z.number().nullable(),
  maxLatencyMs: z.number().nullable(),
});

export const RollupsSchema = z.object({
  healthCheckId: z.uuid(),
  granularity: z.enum(['hour', 'day']),
  /** Oldest first; a bucket in which the check never ran is absent. */
  buckets: z.array(RollupBucketSchema),
});
RollupsSchema.register(z.globalRegistry, { id: 'Rollups' });
export type Rollups = z.infer<typeof RollupsSchema>;
