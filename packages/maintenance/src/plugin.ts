import { notificationSourceExtensionPoint } from '@checkline/notification-node';
import { windowSources } from './notifications/window-source.ts';
import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import { definePlugin } from '@checkline/core';
import { maintenanceAccess } from './access.ts';
import { maintenanceContract } from './contract.ts';
import { maintenanceWindowChanged } from './events.ts';
import { maintenanceRouter } from './router.ts';
import { detachSystem } from './service.ts';
import type { Announcements } from './transitions.ts';
import type { MaintenanceTicker } from './ticker.ts';
import { startMaintenanceTicker } from './ticker.ts';

export interface MaintenancePluginOptions {
  /** Milliseconds between looks for windows that started or ended. Default 15 000. */
  tickIntervalMs?: number;
  /** The ticker's clock. Default: the system clock. */
  now?: () => Date;
}

/** A maintenance plugin with its own ticker; the server mounts `maintenancePlugin`. */
export function createMaintenancePlugin(options: MaintenancePluginOptions = {}) {
  const now = options.now ?? (() => new Date());
  const tickIntervalMs = options.tickIntervalMs ?? 15_000;
  let ticker: MaintenanceTicker | undefined;

  /** Announces, once across all processes, the windows that started or ended by `at`. */
  function tick(at?: Date): Promise<Announcements> {
    if (!ticker) {
      return Promise.reject(new Error('The maintenance ticker runs only between ready and stop'));
    }
    return ticker.tick(at);
  }

  const plugin = definePlugin({
    id: 'maintenance',
    // Windows are attached to catalog systems, checked to exist on every change.
    dependsOn: ['catalog'],
    description:
      'Maintenance windows: planned periods in which systems may be down, shown as `maintenance` in their health.',
    contract: maintenanceContract,
    router: maintenanceRouter,
    accessRules: Object.values(maintenanceAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    register(api) {
      api.events.subscribe(systemDeleted, async ({ systemId }, { db }) => {
        await detachSystem(db, systemId);
      });
      // A window scheduled or moved may bring the next boundary closer than the next tick.
      api.events.subscribe(maintenanceWindowChanged, () => ticker?.armNextBoundary());
      // Windows reach subscribers when the notification plugin is mounted (before this one).
      if (api.extensionPoints.isProvided(notificationSourceExtensionPoint)) {
        const sources = api.extensionPoints.get(notificationSourceExtensionPoint, api.pluginId);
        for (const source of windowSources) sources.register(source);
      }
    },
    ready({ db, events, logger }) {
      ticker ??= startMaintenanceTicker({ db, events, logger, now, tickIntervalMs });
    },
    async stop() {
      const stopping = ticker;
      ticker = undefined;
      await stopping?.stop();
    },
  });
  return Object.assign(plugin, { tick });
}

export const maintenancePlugin = createMaintenancePlugin();
