import { defineContract, mutation, query, raises } from '@checkline/core/contract';
import { z } from 'zod';
import { attachedListOfSystems, attachedToSystemsIn } from '@checkline/catalog/contract';
import { healthcheckAccess } from './access.ts';
import {
  CreateHealthCheckInputSchema,
  DeletedSchema,
  GetBulkSystemHealthStatusInputSchema,
  GetHealthChecksInputSchema,
  GetHistoryInputSchema,
  GetSystemHealthStatusInputSchema,
  HealthCheckPageSchema,
  HealthCheckResultSchema,
  HealthCheckTypeInfoSchema,
  HeartbeatTokenSchema,
  HistorySchema,
  IdInputSchema,
  SavedHealthCheckSchema,
  SetSystemDependenciesInputSchema,
  SystemDependenciesSchema,
  SystemHealthStatusSchema,
  UpdateHealthCheckInputSchema,
} from './schemas.ts';
import { GetSchedulerStatusInputSchema, SchedulerStatusSchema } from './scheduler-schemas.ts';
import {
  GetRollupsInputSchema,
  GetUptimeInputSchema,
  RollupsSchema,
  UptimeSchema,
} from './uptime-schemas.ts';
import { DailyUptimeSchema, GetDailyUptimeInputSchema } from './daily-uptime-schemas.ts';

const read = { access: [healthcheckAccess.read] };
const manage = { access: [healthcheckAccess.manage] };
export const healthcheckContract = defineContract('healthcheck', {
  getHealthCheckTypes: query({
    ...read,
    summary: "The registered check types and the JSON Schema of each one's config.",
  })
    .input(z.object({}))
    .output(z.object({ types: z.array(HealthCheckTypeInfoSchema) })),
  getHealthChecks: query({
    ...read,
    ...attachedListOfSystems('systemId', 'healthChecks'),
    summary: 'Checks by system and name, a page at a time, optionally of one system.',
    description:
      'Checks of systems the caller may not see are left out; a page fills with rows the caller may see, so only the last page is short.',
  })
    .input(GetHealthChecksInputSchema)
    .output(HealthCheckPageSchema),
  createHealthCheck: mutation({
    ...manage,
    ...attachedToSystemsIn('systemId'),
    summary: 'Adds a check to an existing catalog system; its first run is due at once.',
    description: 'A heartbeat check answers its `heartbeatToken` here, the only time it is shown.',
  })
    .errors(raises('CONFLICT'))
    .input(CreateHealthCheckInputSchema)
    .output(SavedHealthCheckSchema),
  updateHealthCheck: mutation({
    ...manage,
    summary:
      'Changes the given fields; a changed type, config, interval or timeout runs again soon.',
    description:
      'A check that becomes a heartbeat check answers its new `heartbeatToken`, the only time it is shown. A config sent without its `password` keeps the stored one.',
  })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdateHealthCheckInputSchema)
    .output(SavedHealthCheckSchema),
  deleteHealthCheck: mutation({ ...manage, summary: 'Deletes a check and its results.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  runHealthCheck: mutation({
    ...manage,
    transaction: false,
    summary: 'Runs a check now, stores the result and answers it.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(HealthCheckResultSchema),
  getHistory: query({
    ...read,
    summary:
      "A check's results, newest first, a page at a time going back in time (from `before`).",
  })
    .errors(raises('NOT_FOUND'))
    .input(GetHistoryInputSchema)
    .output(HistorySchema),
  getSystemHealthStatus: query({
    ...read,
    ...attachedToSystemsIn('systemId'),
    summary: 'The health of one system and the latest result of each of its checks.',
  })
    .input(GetSystemHealthStatusInputSchema)
    .output(SystemHealthStatusSchema),
  getBulkSystemHealthStatus: query({
    ...read,
    ...attachedListOfSystems('systemId', 'statuses'),
    summary:
      'The health of up to 500 systems, in the order asked, leaving out those that do not exist or the caller may not see.',
  })
    .input(GetBulkSystemHealthStatusInputSchema)
    .output(z.object({ statuses: z.array(SystemHealthStatusSchema) })),
  rotateHeartbeatToken: mutation({
    ...manage,
    summary:
      'Issues a new token for a heartbeat check and answers it, this once; the old token stops working.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(HeartbeatTokenSchema),
  setSystemDependencies: mutation({
    ...manage,
    ...attachedToSystemsIn('systemId', 'dependsOn'),
    summary: 'Replaces the systems a system depends on; a change that closes a cycle is refused.',
    description:
      "While a system it depends on is unhealthy, a system's status changes are announced with `causedBy` naming that dependency, and notifications stay quiet about them. Dependencies on systems the caller may not see are kept, and left out of the answer; a refused cycle shows them as `…`.",
  })
    .input(SetSystemDependenciesInputSchema)
    .output(SystemDependenciesSchema),
  getSystemDependencies: query({
    ...read,
    ...attachedToSystemsIn('systemId'),
    summary: 'The systems a system depends on, of those the caller may see.',
  })
    .input(GetSystemHealthStatusInputSchema)
    .output(SystemDependenciesSchema),
  getUptime: query({
    ...read,
    ...attachedToSystemsIn('systemIds'),
    // Up to a thousand ids do not fit a query string.
    bulk: true,
    summary:
      'Uptime and latency of systems or checks over 24h, 7d, 30d and 90d, from hourly and daily rollups.',
    description:
      'A fixed number of statements however many systems or checks (up to 500 ids each). A system named that does not exist, or that the caller may not see, is NOT_FOUND; checks of systems the caller may not see are left out.',
  })
    .input(GetUptimeInputSchema)
    .output(UptimeSchema),
  getRollups: query({
    ...read,
    summary:
      "One check's hourly (24h, 7d) or daily (30d, 90d) rollups, oldest first: runs, failures, uptime and latency per bucket.",
    description:
      'For charts over long ranges and daily uptime bars; a bucket in which the check never ran is absent. A check of a system the caller may not see is NOT_FOUND.',
  })
    .errors(raises('NOT_FOUND'))
    .input(GetRollupsInputSchema)
    .output(RollupsSchema),
  getDailyUptime: query({
    ...read,
    ...attachedListOfSystems('systemId', 'systems'),
    bulk: true,
    summary: 'Uptime of systems per UTC day over up to 90 days, from the daily rollups.',
    description:
      'One statement however many systems (up to 500). Systems that do not exist or the caller may not see are left out; a day without a scheduled run has a null `uptimePercent`.',
  })
    .input(GetDailyUptimeInputSchema)
    .output(DailyUptimeSchema),
  getSchedulerStatus: query({
    ...manage,
    summary:
      'How the check schedulers keep up: due backlog, runs per second, lag p50/p99 and late starts, in all and per server process.',
  })
    .input(GetSchedulerStatusInputSchema)
    .output(SchedulerStatusSchema),
});

export type HealthcheckContract = typeof healthcheckContract;
