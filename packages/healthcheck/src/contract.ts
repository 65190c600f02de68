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
  HealthCheckResultSchema,
  HealthCheckSchema,
  HealthCheckTypeInfoSchema,
  HistorySchema,
  IdInputSchema,
  SystemHealthStatusSchema,
  UpdateHealthCheckInputSchema,
} from './schemas.ts';

const read = { access: [healthcheckAccess.read] };
const manage = { access: [healthcheckAccess.manage] };
export const healthcheckContract = defineContract('healthcheck', {
  /** The registered check types and the JSON Schema of each one's config. */
  getHealthCheckTypes: query(read)
    .input(z.object({}))
    .output(z.object({ types: z.array(HealthCheckTypeInfoSchema) })),
  /** Checks of the systems the caller may see, optionally of one system. */
  getHealthChecks: query({ ...read, ...attachedToSystems('systemId', 'healthChecks') })
    .input(GetHealthChecksInputSchema)
    .output(z.object({ healthChecks: z.array(HealthCheckSchema) })),
  /** Adds a check to an existing catalog system; its first run is due at once. */
  createHealthCheck: mutation({ ...manage, ...namesSystems('systemId') })
    .input(CreateHealthCheckInputSchema)
    .output(HealthCheckSchema),
  /** Changes the given fields; a changed type, config, interval or timeout runs again soon. */
  updateHealthCheck: mutation(manage).input(UpdateHealthCheckInputSchema).output(HealthCheckSchema),
  /** Deletes a check and its results. */
  deleteHealthCheck: mutation(manage).input(IdInputSchema).output(DeletedSchema),
  /** Runs a check now, stores the result and answers it. */
  runHealthCheck: mutation({ ...manage, transaction: false })
    .input(IdInputSchema)
    .output(HealthCheckResultSchema),
  /** A check's results, newest first, a page at a time going back in time. */
  getHistory: query(read).input(GetHistoryInputSchema).output(HistorySchema),
  /** The health of one system and the latest result of each of its checks. */
  getSystemHealthStatus: query({ ...read, ...namesSystems('systemId') })
    .input(GetSystemHealthStatusInputSchema)
    .output(SystemHealthStatusSchema),
  /** The health of up to 500 systems, in the order asked, leaving out those the caller may not see. */
  getBulkSystemHealthStatus: query({ ...read, ...attachedToSystems('systemId', 'statuses') })
    .input(GetBulkSystemHealthStatusInputSchema)
    .output(z.object({ statuses: z.array(SystemHealthStatusSchema) })),
});

export type HealthcheckContract = typeof healthcheckContract;
