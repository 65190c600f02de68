import { readDailyUptime } from './daily-uptime.ts';
import { assertSystemsExist, existingSystems } from '@checkline/catalog';
import { systemResource } from '@checkline/catalog/contract';
import type { RequestContext } from '@checkline/core';
import {
  boundSecretFields,
  assertAttachedReach,
  badRequest,
  implementPlugin,
  notFound,
  pageScope,
  runInTransaction,
  unreachableResources,
} from '@checkline/core';
import type { HealthCheckTypeRegistry } from './check-type.ts';
import { describeCheckTypes, parseCheckConfig } from './check-type.ts';
import type { SecretSealer } from './config-secrets.ts';
import { sealConfigSecrets } from './config-secrets.ts';
import { healthcheckContract } from './contract.ts';
import { readDependencies, writeDependencies } from './dependencies/store.ts';
import { healthStatusChanged } from './events.ts';
import { withHeartbeatToken } from './heartbeat/on-save.ts';
import { issueHeartbeatToken } from './heartbeat/store.ts';
import { HEARTBEAT_TYPE } from './heartbeat/token.ts';
import { maintenanceLookup } from './maintenance.ts';
import { recordResult } from './record-result.ts';
import { runCheck } from './run-check.ts';
import type { RunGuard } from './run-rate-limit.ts';
import type { HealthStatusChange } from './schemas.ts';
import * as healthchecks from './service.ts';
import { readSchedulerStatus } from './scheduler-status.ts';
import { readSystemStatuses, recomputeSystemStatus } from './system-status.ts';
import { readRollupSeries } from './rollup-series.ts';
import { checksCovered, readUptime } from './uptime.ts';
import type { TargetPolicy } from '@checkline/net';

export interface HealthcheckRouterDeps {
  types: HealthCheckTypeRegistry;
  targets: TargetPolicy;
  assertMayRun: RunGuard;
  now: () => Date;
  /** Encrypts config secrets (the postgres password) before they are stored. */
  secrets?: SecretSealer;
}

const announce = (context: Pick<RequestContext, 'emit'>, change: HealthStatusChange | null) => {
  if (change) context.emit(healthStatusChanged, change);
};

export function createHealthcheckRouter(deps: HealthcheckRouterDeps) {
  const { types, targets, now } = deps;
  const os = implementPlugin(healthcheckContract);
  const parseConfig = async (typeId: string, config: unknown, checkId: string) =>
    sealConfigSecrets(
      await parseCheckConfig(types, targets, typeId, config),
      checkId,
      deps.secrets,
    );

  const secretFieldsOf = (typeId: string) => {
    const type = types.get(typeId);
    if (!type) throw new Error(`Health check type ${typeId} is not registered`);
    return boundSecretFields(type.config);
  };

  /** The check addressed by `id`, once the caller may act on its system (hidden answers as missing). */
  const addressedCheck = async (context: RequestContext, id: string, level: 'read' | 'manage') => {
    const check = await healthchecks.getHealthCheckRow(context.db, id);
    await assertAttachedReach(context, systemResource, [check.systemId], level, () =>
      notFound('Health check', id),
    );
    return check;
  };

  return os.router({
    getHealthCheckTypes: os.getHealthCheckTypes.handler(() => ({
      types: describeCheckTypes(types),
    })),
    getHealthChecks: os.getHealthChecks.handler(({ context, input }) =>
      healthchecks.listHealthChecks(context.db, input, pageScope(context)),
    ),
    createHealthCheck: os.createHealthCheck.handler(async ({ context, input }) => {
      await assertSystemsExist(context, [input.systemId]);
      const at = now();
      const check = await healthchecks.createHealthCheck(context.db, input, {
        now: at,
        parseConfig,
        createdBy: `${context.principal.kind}:${context.principal.id}`,
      });
      return withHeartbeatToken(context.db, check, undefined, at);
    }),
    updateHealthCheck: os.updateHealthCheck.handler(async ({ context, input }) => {
      const before = await addressedCheck(context, input.id, 'manage');
      const at = now();
      const check = await healthchecks.updateHealthCheck(context.db, input, {
        now: at,
        parseConfig,
        secretFieldsOf,
      });
      return withHeartbeatToken(context.db, check, before.type, at);
    }),
    deleteHealthCheck: os.deleteHealthCheck.handler(async ({ context, input }) => {
      const check = await addressedCheck(context, input.id, 'manage');
      await healthchecks.deleteHealthCheck(context.db, check.id);
      const inMaintenance = maintenanceLookup(context);
      announce(
        context,
        await recomputeSystemStatus(context.db, check.systemId, now(), inMaintenance),
      );
      return { id: check.id, deleted: true as const };
    }),
    runHealthCheck: os.runHealthCheck.handler(async ({ context, input }) => {
      await deps.assertMayRun(context.principal);
      const check = await addressedCheck(context, input.id, 'manage');
      const outcome = await runCheck(
        types,
        { ...check, healthCheckId: check.id },
        { targets, db: context.db },
      );
      // The check ran outside any transaction; its result and status change commit together.
      const result = await runInTransaction(context, async (inner) => {
        const recorded = await recordResult(
          inner.db,
          { healthCheckId: check.id, outcome, dueAt: null, checkedAt: now() },
          maintenanceLookup(context),
        );
        announce(inner, recorded.change);
        return recorded.result;
      });
      if (!result) throw notFound('Health check', check.id);
      return result;
    }),
    getHistory: os.getHistory.handler(async ({ context, input }) => {
      const check = await addressedCheck(context, input.healthCheckId, 'read');
      return healthchecks.listHistory(context.db, check.id, input, pageScope(context));
    }),
    getSystemHealthStatus: os.getSystemHealthStatus.handler(async ({ context, input }) => {
      await assertSystemsExist(context, [input.systemId]);
      const [status] = await readSystemStatuses(
        context.db,
        [input.systemId],
        maintenanceLookup(context),
      );
      return status!;
    }),
    getBulkSystemHealthStatus: os.getBulkSystemHealthStatus.handler(async ({ context, input }) => {
      // A missing system is left out as a hidden one is (by the access middleware).
      const asked = [...new Set(input.systemIds)];
      const existing = await existingSystems(context, asked);
      return {
        statuses: await readSystemStatuses(
          context.db,
          asked.filter((id) => existing.has(id)),
          maintenanceLookup(context),
        ),
      };
    }),
    rotateHeartbeatToken: os.rotateHeartbeatToken.handler(async ({ context, input }) => {
      const check = await addressedCheck(context, input.id, 'manage');
      if (check.type !== HEARTBEAT_TYPE) {
        throw badRequest('Only heartbeat checks have a token', [
          { path: 'id', message: `The check is of type ${check.type}` },
        ]);
      }
      const heartbeatToken = await issueHeartbeatToken(context.db, check.id, now());
      return { healthCheckId: check.id, heartbeatToken };
    }),
    setSystemDependencies: os.setSystemDependencies.handler(async ({ context, input }) => {
      await assertSystemsExist(context, [input.systemId, ...input.dependsOn]);
      // Dependencies on systems the caller may not see are neither shown nor undone by it.
      const hidden = await unreachableResources(context, systemResource, 'read');
      const dependsOn = await writeDependencies(
        context.db,
        input.systemId,
        input.dependsOn,
        hidden,
      );
      return { systemId: input.systemId, dependsOn: dependsOn.filter((id) => !hidden.has(id)) };
    }),
    getSystemDependencies: os.getSystemDependencies.handler(async ({ context, input }) => {
      await assertSystemsExist(context, [input.systemId]);
      const [dependsOn, hidden] = await Promise.all([
        readDependencies(context.db, input.systemId),
        unreachableResources(context, systemResource, 'read'),
      ]);
      return { systemId: input.systemId, dependsOn: dependsOn.filter((id) => !hidden.has(id)) };
    }),
    getUptime: os.getUptime.handler(async ({ context, input }) => {
      // Named systems are vetted by the access middleware (a hidden one is NOT_FOUND), so a
      // missing one is NOT_FOUND too; checks named by id are vetted here.
      await assertSystemsExist(context, input.systemIds ?? []);
      const [checks, hidden] = await Promise.all([
        checksCovered(context.db, input),
        unreachableResources(context, systemResource, 'read'),
      ]);
      const visible = checks.filter((check) => !hidden.has(check.systemId));
      return readUptime(context.db, input, visible, now());
    }),
    getRollups: os.getRollups.handler(async ({ context, input }) => {
      await addressedCheck(context, input.healthCheckId, 'read');
      return readRollupSeries(context.db, input, now());
    }),
    getDailyUptime: os.getDailyUptime.handler(async ({ context, input }) => {
      // A missing system is left out exactly as a hidden one is.
      const [found, hidden] = await Promise.all([
        existingSystems(context, input.systemIds),
        unreachableResources(context, systemResource, 'read'),
      ]);
      const systemIds = input.systemIds.filter((id) => found.has(id));
      return readDailyUptime(context.db, { ...input, systemIds }, hidden, now());
    }),
    getSchedulerStatus: os.getSchedulerStatus.handler(({ context, input }) =>
      readSchedulerStatus(context.db, input, now()),
    ),
  });
}
