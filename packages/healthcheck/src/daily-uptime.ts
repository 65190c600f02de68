import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { healthChecks, resultRollups } from './db/schema.ts';
import type { DailyUptime, GetDailyUptimeInput } from './daily-uptime-schemas.ts';

const DAY_MS = 86_400_000;

interface DayRow {
  systemId: string;
  day: string | Date;
  upSeconds: number | string;
  downSeconds: number | string;
}

const isoDay = (value: string | Date) =>
  (typeof value === 'string' ? new Date(value) : value).toISOString().slice(0, 10);

/**
 * Uptime per system and UTC day from the daily rollups, in one statement whatever the number of
 * systems: the up and down seconds of every check of a system summed per day.
 */
export async function readDailyUptime(
  db: Database,
  input: GetDailyUptimeInput,
  hiddenSystemIds: ReadonlySet<string>,
  now: Date,
): Promise<DailyUptime> {
  const systemIds = [...new Set(input.systemIds)].filter((id) => !hiddenSystemIds.has(id));
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const since = new Date(today - (input.days - 1) * DAY_MS);
  const rows =
    systemIds.length === 0
      ? []
      : await queryRows<DayRow>(
          db,
          sql`select ${healthChecks.systemId} as "systemId", ${resultRollups.bucketStart} as day,
              sum(${resultRollups.upSeconds})::float8 as "upSeconds",
              sum(${resultRollups.downSeconds})::float8 as "downSeconds"
            from ${resultRollups} join ${healthChecks} on ${healthChecks.id} = ${resultRollups.healthCheckId}
            where ${resultRollups.granularity} = 'day' and ${resultRollups.bucketStart} >= ${since.toISOString()}::timestamptz
              and ${healthChecks.systemId} = any(${sql.param(systemIds)}::uuid[])
            group by ${healthChecks.systemId}, ${resultRollups.bucketStart}`,
        );
  const byKey = new Map<string, number | null>();
  for (const row of rows) {
    const up = Number(row.upSeconds);
    const checked = up + Number(row.downSeconds);
    byKey.set(`${row.systemId}/${isoDay(row.day)}`, checked === 0 ? null : (100 * up) / checked);
  }
  const dates = Array.from({ length: input.days }, (_, index) =>
    isoDay(new Date(since.getTime() + index * DAY_MS)),
  );
  return {
    systems: systemIds.map((systemId) => ({
      systemId,
      days: dates.map((date) => ({
        date,
        uptimePercent: byKey.get(`${systemId}/${date}`) ?? null,
      })),
    })),
  };
}
