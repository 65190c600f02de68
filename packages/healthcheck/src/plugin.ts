import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import type { EventBus, Logger, RateLimit } from '@checkline/core';
import { definePlugin, enqueueEvent } from '@checkline/core';
import type { Database } from '@checkline/db';
import type { MaintenanceEvent } from '@checkline/maintenance';
import { maintenanceEnded, maintenanceStarted } from '@checkline/maintenance';
import { healthcheckAccess } from './access.ts';
import {
  checkTypeExtensionFor,
  createHealthCheckTypeRegistry,
  healthCheckTypeExtensionPoint,
} from './check-type.ts';
import { dnsCheckType } from './check-types/dns.ts';
import { createHeartbeatCheckType } from './check-types/heartbeat.ts';
import { httpCheckType } from './check-types/http.ts';
import { createPostgresCheckType } from './check-types/postgres.ts';
import { tcpCheckType } from './check-types/tcp.ts';
import { tlsCheckType } from './check-types/tls.ts';
import type { SecretSealer } from './config-secrets.ts';
import { healthcheckContract } from './contract.ts';
import { forgetDependencies } from './dependencies/store.ts';
import { healthStatusChanged } from './events.ts';
import { heartbeatRoute } from './heartbeat/route.ts';
import { readBeatState } from './heartbeat/store.ts';
import type { MaintenanceLookup } from './maintenance.ts';
import { maintenanceLookup } from './maintenance.ts';
import { createHealthcheckRouter } from './router.ts';
import { defaultRunRateLimit, runRateLimiter } from './run-rate-limit.ts';
import type { Scheduler, SchedulerSettings } from './scheduler.ts';
import { createScheduler } from './scheduler.ts';
import { deleteChecksOfSystem } from './service.ts';
import { forgetSystemStatus, recomputeSystemStatus } from './system-status.ts';
import type { TargetPolicyOptions } from './targets/target-policy.ts';
import { closeSharedPinnedAgent } from './targets/pinned-agent.ts';
import { createTargetPolicy } from './targets/target-policy.ts';

export interface HealthcheckPluginOptions {
  /** The clock of procedures and of the scheduler. Default: the system clock. */
  now?: () => Date;
  /**
   * Where checks may connect (API.md 4): `allow` and `deny` lists of addresses, ranges and host
   * names (the server fills them from CHECK_TARGETS_ALLOW and CHECK_TARGETS_DENY), and the
   * resolver. Default: link-local, metadata, unspecified and loopback refused, all else allowed.
   */
  targets?: TargetPolicyOptions;
  /**
   * Encrypts config secrets (the postgres password) at rest: the server hands in its keyring
   * (`ENCRYPTION_KEY`). Without it they are stored as sent (never answered either way).
   */
  secrets?: SecretSealer;
  /** Each caller's budget of `runHealthCheck` calls; `false` for none. Default 30 a minute. */
  runRateLimit?: RateLimit | false;
  /** The scheduler: CHECK_CONCURRENCY and CHECK_RESULT_RETENTION_DAYS land here. */
  scheduler?: SchedulerSettings & {
    /** Start ticking in `ready`. Default true; false leaves `tick()` to the caller (tests). */
    autoStart?: boolean;
  };
}

/** A healthcheck plugin with its own type registry and scheduler; the server mounts `healthcheckPlugin`. */
export function createHealthcheckPlugin(options: HealthcheckPluginOptions = {}) {
  const now = options.now ?? (() => new Date());
  const types = createHealthCheckTypeRegistry();
  const targets = createTargetPolicy(options.targets);
  let services:
    | { db: Database; events: EventBus; logger: Logger; inMaintenance: MaintenanceLookup }
    | undefined;
  let scheduler: Scheduler | undefined;

  const initialised = () => {
    if (!services) throw new Error('The healthcheck plugin has not been initialised');
    return services;
  };

  async function forgetSystem({ systemId }: { systemId: string }) {
    await initialised().db.transaction(async (tx) => {
      await deleteChecksOfSystem(tx, systemId);
      await forgetSystemStatus(tx, systemId);
      await forgetDependencies(tx, systemId);
    });
  }

  /** A window starting or ending changes the status of its systems without any new result. */
  async function recomputeCovered({ systemIds }: MaintenanceEvent) {
    const { db, events, inMaintenance } = initialised();
    for (const systemId of systemIds) {
      const eventIds = await db.transaction(async (tx) => {
        const change = await recomputeSystemStatus(tx, systemId, now(), inMaintenance);
        return change ? [await enqueueEvent(tx, healthStatusChanged, change)] : [];
      });
      events.dispatch(eventIds);
    }
  }

  const plugin = definePlugin({
    id: 'healthcheck',
    description:
      "Health checks of catalog systems (HTTP, TCP and more), their results and history, and each system's health status.",
    contract: healthcheckContract,
    router: createHealthcheckRouter({
      types,
      targets,
      assertMayRun: runRateLimiter(options.runRateLimit ?? defaultRunRateLimit),
      now,
      secrets: options.secrets,
    }),
    accessRules: Object.values(healthcheckAccess),
    routes: [heartbeatRoute({ db: () => initialised().db, now })],
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    register(api) {
      api.extensionPoints.provide(healthCheckTypeExtensionPoint, api.pluginId, (caller) =>
        checkTypeExtensionFor(types, caller),
      );
      const builtIn = api.extensionPoints.get(healthCheckTypeExtensionPoint, api.pluginId);
      builtIn.register(httpCheckType);
      builtIn.register(tcpCheckType);
      builtIn.register(dnsCheckType);
      builtIn.register(tlsCheckType);
      builtIn.register(createPostgresCheckType(options.secrets));
      builtIn.register(
        createHeartbeatCheckType({
          readBeat: (healthCheckId) => readBeatState(initialised().db, healthCheckId),
          now,
        }),
      );
      api.events.subscribe(systemDeleted, forgetSystem);
      api.events.subscribe(maintenanceStarted, recomputeCovered);
      api.events.subscribe(maintenanceEnded, recomputeCovered);
    },
    init(api) {
      services = {
        db: api.db,
        events: api.events,
        logger: api.logger,
        inMaintenance: maintenanceLookup(api.serviceContext()),
      };
    },
    ready() {
      types.freeze();
      scheduler = createScheduler({ ...initialised(), types, targets, now }, options.scheduler);
      if (options.scheduler?.autoStart !== false) scheduler.start();
    },
    async stop() {
      await scheduler?.stop();
      scheduler = undefined;
      await closeSharedPinnedAgent(targets);
    },
  });

  return Object.assign(plugin, {
    /** The registered check types (the extension point's store). */
    checkTypes: types,
    /** This process's scheduler; there is one from `ready` until `stop`. */
    scheduler(): Scheduler {
      if (!scheduler) throw new Error('The healthcheck scheduler runs only between ready and stop');
      return scheduler;
    },
  });
}

export const healthcheckPlugin = createHealthcheckPlugin();
