import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import type { EventBus, Logger } from '@checkline/core';
import { definePlugin, enqueueEvent } from '@checkline/core';
import type { Database } from '@checkline/db';
import { createOutageLog } from '@checkline/db';
import { maintenanceAccess } from './access.ts';
import { maintenanceContract } from './contract.ts';
import { maintenanceEnded, maintenanceStarted } from './events.ts';
import { maintenanceRouter } from './router.ts';
import { detachSystem } from './service.ts';
import type { Ticker } from './ticker.ts';
import { createTicker } from './ticker.ts';
import type { Announcements } from './transitions.ts';
import { claimTransitions } from './transitions.ts';

export interface MaintenancePluginOptions {
  /** Milliseconds between looks for windows that started or ended. Default 15 000. */
  tickIntervalMs?: number;
  /** The ticker's clock. Default: the system clock. */
  now?: () => Date;
}

/** A maintenance plugin with its own ticker; the server mounts `maintenancePlugin`. */
export function createMaintenancePlugin(options: MaintenancePluginOptions = {}) {
  const clock = options.now ?? (() => new Date());
  let services: { db: Database; events: EventBus; logger: Logger } | undefined;
  let ticker: Ticker | undefined;

  const initialised = () => {
    if (!services) throw new Error('The maintenance plugin has not been initialised');
    return services;
  };

  /** Announces, once across all processes, the windows that started or ended by `now`. */
  async function tick(now = clock()): Promise<Announcements> {
    const { db, events } = initialised();
    // A claimed transition and its event commit together: neither exists without the other.
    const { announced, eventIds } = await db.transaction(async (tx) => {
      const claimed = await claimTransitions(tx, now);
      const ids: string[] = [];
      for (const payload of claimed.started)
        ids.push(await enqueueEvent(tx, maintenanceStarted, payload));
      for (const payload of claimed.ended)
        ids.push(await enqueueEvent(tx, maintenanceEnded, payload));
      return { announced: claimed, eventIds: ids };
    });
    events.dispatch(eventIds);
    return announced;
  }

  const plugin = definePlugin({
    id: 'maintenance',
    description:
      'Maintenance windows: planned periods in which systems may be down, shown as `maintenance` in their health.',
    contract: maintenanceContract,
    router: maintenanceRouter,
    accessRules: Object.values(maintenanceAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    register(api) {
      api.events.subscribe(systemDeleted, async ({ systemId }) => {
        await detachSystem(initialised().db, systemId);
      });
    },
    init(api) {
      services = { db: api.db, events: api.events, logger: api.logger };
    },
    ready() {
      if (ticker) return;
      // While the database is away every tick fails; the outage is logged once, not per tick.
      const outage = createOutageLog(initialised().logger, 'maintenance ticker');
      ticker = createTicker(
        async function announceMaintenance() {
          await tick();
          outage.succeeded();
        },
        {
          intervalMs: options.tickIntervalMs ?? 15_000,
          onError: (error) => outage.failed(error, 'maintenance tick failed'),
        },
      );
      ticker.start();
    },
    async stop() {
      await ticker?.stop();
      ticker = undefined;
    },
  });
  return Object.assign(plugin, { tick });
}

export const maintenancePlugin = createMaintenancePlugin();
