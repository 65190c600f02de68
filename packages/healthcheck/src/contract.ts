import { defineContract, mutation, query } from '@checkline/core/contract';
import { z } from 'zod';
import { attachedToSystems, namesSystems } from '@checkline/catalog/contract';
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
import { GetUptimeInputSchema, UptimeSchema } from './uptime-schemas.ts';

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
    ...attachedToSystems('systemId', 'healthChecks'),
    summary: 'Checks by system and name, a page at a time, optionally of one system.',
    description:
      'Checks of systems the caller may not see are left out after the page is read, so a page may be short while `nextCursor` is not null.',
  })
    .input(GetHealthChecksInputSchema)
    .output(HealthCheckPageSchema),
  createHealthCheck: mutation({
    ...manage,
    ...namesSystems('systemId'),
    summary: 'Adds a check to an existing catalog system; its first run is due at once.',
    description: 'A heartbeat check answers its `heartbeatToken` here, the only time it is shown.',
  })
    .input(CreateHealthCheckInputSchema)
    .output(SavedHealthCheckSchema),
  updateHealthCheck: mutation({
    ...manage,
    summary:
      'Changes the given fields; a changed type, config, interval or timeout runs again soon.',
    description:
      'A check that becomes a heartbeat check answers its new `heartbeatToken`, the only time it is shown. A config sent without its `password` keeps the stored one.',
  })
    .input(UpdateHealthCheckInputSchema)
    .output(SavedHealthCheckSchema),
  deleteHealthCheck: mutation({ ...manage, summary: 'Deletes a check and its results.' })
    .input(IdInputSchema)
    .output(DeletedSchema),
  runHealthCheck: mutation({
    ...manage,
    transaction: false,
    summary: 'Runs a check now, stores the result and answers it.',
  })
    .input(IdInputSchema)
    .output(HealthCheckResultSchema),
  getHistory: query({
    ...read,
    summary:
      "A check's results, newest first, a page at a time going back in time (from `before`).",
  })
    .input(GetHistoryInputSchema)
    .output(HistorySchema),
  getSystemHealthStatus: query({
    ...read,
    ...namesSystems('systemId'),
    summary: 'The health of one system and the latest result of each of its checks.',
  })
    .input(GetSystemHealthStatusInputSchema)
    .output(SystemHealthStatusSchema),
  getBulkSystemHealthStatus: query({
    ...read,
    ...attachedToSystems('systemId', 'statuses'),
    summary:
      'The health of up to 500 systems, in the order asked, leaving out those the caller may not see.',
  })
    .input(GetBulkSystemHealthStatusInputSchema)
    .output(z.object({ statuses: z.array(SystemHealthStatusSchema) })),
  rotateHeartbeatToken: mutation({
    ...manage,
    summary:
      'Issues a new token for a heartbeat check and answers it, this once; the old token stops working.',
  })
    .input(IdInputSchema)
    .output(HeartbeatTokenSchema),
  setSystemDependencies: mutation({
    ...manage,
    ...namesSystems('systemId', 'dependsOn'),
    summary: 'Replaces the systems a system depends on; a change that closes a cycle is refused.',
    description:
      "While a system it depends on is unhealthy, a system's status changes are announced with `causedBy` naming that dependency, and notifications stay quiet about them.",
  })
    .input(SetSystemDependenciesInputSchema)
    .output(SystemDependenciesSchema),
  getSystemDependencies: query({
    ...read,
    ...namesSystems('systemId'),
    summary: 'The systems a system depends on.',
  })
    .input(GetSystemHealthStatusInputSchema)
    .output(SystemDependenciesSchema),
  getUptime: query({
    ...read,
    ...namesSystems('systemIds'),
    // Up to a thousand ids do not fit a query string.
    bulk: true,
    summary:
      'Uptime and latency of systems or checks over 24h, 7d, 30d and 90d, from hourly and daily rollups.',
    description:
      'A fixed number of statements however many systems or checks (up to 500 ids each). Checks of systems the caller may not see are left out.',
  })
    .input(GetUptimeInputSchema)
    .output(UptimeSchema),
  getSchedulerStatus: query({
    ...manage,
    summary:
      'How the check schedulers keep up: due backlog, runs per second and lag p50/p99, in all and per server process.',
  })
    .input(GetSchedulerStatusInputSchema)
    .output(SchedulerStatusSchema),
});

export type HealthcheckContract = typeof healthcheckContract;
