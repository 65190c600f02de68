import { notificationSourceExtensionPoint } from '@checkline/notification-node';
import { statusChangeSource } from './notifications/status-change-source.ts';
import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import type { RateLimit, SubscriberContext } from '@checkline/core';
import { definePlugin, enqueueEvent } from '@checkline/core';
import type { MaintenanceEvent } from '@checkline/maintenance';
import { maintenanceEnded, maintenanceStarted } from '@checkline/maintenance';
import { healthcheckAccess } from './access.ts';
import {
  checkTypeExtensionFor,
  createHealthCheckTypeRegistry,
  healthCheckTypeExtensionPoint,
} from './check-type.ts';
import { documentedCheckInputs } from './documented-inputs.ts';
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
import type { MaintenanceLookup } from './maintenance.ts';
import { maintenanceLookup } from './maintenance.ts';
import { createHealthcheckRouter } from './router.ts';
import { beatRateLimiter, defaultBeatRateLimit } from './heartbeat/beat-rate-limit.ts';
import { defaultRunRateLimit, runRateLimiter } from './run-rate-limit.ts';
import type { Scheduler, SchedulerSettings } from './scheduler.ts';
import { createScheduler, schedulerDefaults } from './scheduler.ts';
import { readBacklogOnScrape } from './scheduler-metrics.ts';
import { deleteChecksOfSystem } from './service.ts';
import { forgetSystemStatus, recomputeSystemStatus } from './system-status.ts';
import { closeSharedPinnedAgent, createTargetPolicy, sharedPinnedAgent } from '@checkline/net';
import type { TargetPolicyOptions } from '@checkline/net';

export interface HealthcheckPluginOptions {
  /** The clock of procedures and of the scheduler. Default: the system clock. */
  now?: () => Date;
  /**
   * Where checks may connect (docs/api.md, "Targets a check may reach"): `allow` and `deny` lists of addresses, ranges and host
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
  /** Each heartbeat check's budget of beats; `false` for none. Default 60 a minute. */
  beatRateLimit?: RateLimit | false;
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
  let scheduler: Scheduler | undefined;
  const runs = runRateLimiter(options.runRateLimit ?? defaultRunRateLimit);
  const beats = beatRateLimiter(options.beatRateLimit ?? defaultBeatRateLimit);

  async function forgetSystem({ systemId }: { systemId: string }, { db }: SubscriberContext) {
    await db.transaction(async (tx) => {
      await deleteChecksOfSystem(tx, systemId);
      await forgetSystemStatus(tx, systemId);
      await forgetDependencies(tx, systemId);
    });
  }

  /** A window starting or ending changes the status of its systems without any new result. */
  async function recomputeCovered(
    { systemIds }: MaintenanceEvent,
    { db, events }: SubscriberContext,
    inMaintenance: MaintenanceLookup,
  ) {
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
    // Checks belong to catalog systems; runs are skipped in their maintenance windows.
    dependsOn: ['catalog', 'maintenance'],
    description:
      "Health checks of catalog systems (HTTP, TCP and more), their results and history, and each system's health status.",
    contract: healthcheckContract,
    router: createHealthcheckRouter({
      types,
      targets,
      assertMayRun: runs.assertMayRun,
      now,
      secrets: options.secrets,
    }),
    accessRules: Object.values(healthcheckAccess),
    documentedInputs: () => documentedCheckInputs(types),
    routes: [heartbeatRoute({ now, beats })],
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
      builtIn.register(createHeartbeatCheckType({ now }));
      api.events.subscribe(systemDeleted, forgetSystem);
      // Status changes reach subscribers when the notification plugin is mounted (before this one).
      if (api.extensionPoints.isProvided(notificationSourceExtensionPoint)) {
        api.extensionPoints
          .get(notificationSourceExtensionPoint, api.pluginId)
          .register(statusChangeSource);
      }
    },
    init(api) {
      // Several processes share one PostgreSQL database, and so the budgets; PGlite is one process.
      if (api.databaseKind === 'postgres') {
        runs.shareIn(api.db);
        beats.shareIn(api.db);
      }
      // Subscribed here, not in register: asking maintenance takes the service context.
      const inMaintenance = maintenanceLookup(api.serviceContext());
      const recompute = (event: MaintenanceEvent, context: SubscriberContext) =>
        recomputeCovered(event, context, inMaintenance);
      api.events.subscribe(maintenanceStarted, recompute);
      api.events.subscribe(maintenanceEnded, recompute);
      readBacklogOnScrape(api.metrics, api.db, now);
    },
    ready(api) {
      types.freeze();
      // As many connections per origin as runs per host the scheduler lets run at once: a
      // scheduled run never waits for a connection, whatever the number of checks of an origin.
      sharedPinnedAgent(targets, options.scheduler?.maxPerHost ?? schedulerDefaults.maxPerHost);
      const { db, events, logger, metrics } = api;
      const inMaintenance = maintenanceLookup(api.serviceContext());
      scheduler = createScheduler(
        { db, events, logger, metrics, inMaintenance, types, targets, now },
        options.scheduler,
      );
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
