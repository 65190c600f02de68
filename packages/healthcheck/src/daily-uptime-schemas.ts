import { z } from 'zod';
import { MAX_UPTIME_IDS } from './uptime-schemas.ts';

export const MAX_DAILY_UPTIME_DAYS = 90;

export const GetDailyUptimeInputSchema = z.object({
  systemIds: z.array(z.uuid()).min(1).max(MAX_UPTIME_IDS, `At most ${MAX_UPTIME_IDS} ids per call`),
  /** How many UTC days, today included. Default 90. */
  days: z.number().int().min(1).max(MAX_DAILY_UPTIME_DAYS).default(MAX_DAILY_UPTIME_DAYS),
});
export type GetDailyUptimeInput = z.infer<typeof GetDailyUptimeInputSchema>;

export const DailyUptimeSchema = z.object({
  /** Each system asked for that exists and the caller may see, in the order asked, one entry per day, oldest first. */
  systems: z.array(
    z.object({
      systemId: z.uuid(),
      days: z.array(
        z.object({
          /** The UTC day, `YYYY-MM-DD`. */
          date: z.iso.date(),
          /** Share of the checked time found passing, 0-100, its checks taken together; null with no scheduled run that day. */
          uptimePercent: z.number().nullable(),
        }),
      ),
    }),
  ),
});
DailyUptimeSchema.register(z.globalRegistry, { id: 'DailyUptime' });
export type DailyUptime = z.infer<typeof DailyUptimeSchema>;
