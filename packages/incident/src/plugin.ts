import { notificationSourceExtensionPoint } from '@checkline/notification-node';
import { incidentSources } from './notifications/incident-source.ts';
import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import { definePlugin } from '@checkline/core';
import { incidentAccess } from './access.ts';
import { incidentContract } from './contract.ts';
import { incidentRouter } from './router.ts';
import { detachSystem } from './service.ts';

/** An incident plugin; the server mounts `incidentPlugin`. */
export function createIncidentPlugin() {
  return definePlugin({
    id: 'incident',
    // Incidents are attached to catalog systems, checked to exist on every change.
    dependsOn: ['catalog'],
    description:
      'Incidents affecting systems, from investigation to resolution, each with its timeline.',
    contract: incidentContract,
    router: incidentRouter,
    accessRules: Object.values(incidentAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    register(api) {
      api.events.subscribe(systemDeleted, async ({ systemId }, { db }) => {
        await detachSystem(db, systemId);
      });
      // Incidents reach subscribers when the notification plugin is mounted (before this one).
      if (api.extensionPoints.isProvided(notificationSourceExtensionPoint)) {
        const sources = api.extensionPoints.get(notificationSourceExtensionPoint, api.pluginId);
        for (const source of incidentSources) sources.register(source);
      }
    },
  });
}

export const incidentPlugin = createIncidentPlugin();
