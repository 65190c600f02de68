import { fileURLToPath } from 'node:url';
import { systemDeleted } from '@checkline/catalog';
import { definePlugin } from '@checkline/core';
import type { Database } from '@checkline/db';
import { incidentAccess } from './access.ts';
import { incidentContract } from './contract.ts';
import { incidentRouter } from './router.ts';
import { detachSystem } from './service.ts';

/** An incident plugin; the server mounts `incidentPlugin`. */
export function createIncidentPlugin() {
  let database: Database | undefined;
  const initialised = () => {
    if (!database) throw new Error('The incident plugin has not been initialised');
    return database;
  };

  return definePlugin({
    id: 'incident',
    description:
      'Incidents affecting systems, from investigation to resolution, each with its timeline.',
    contract: incidentContract,
    router: incidentRouter,
    accessRules: Object.values(incidentAccess),
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    register(api) {
      api.events.subscribe(systemDeleted, async ({ systemId }) => {
        await detachSystem(initialised(), systemId);
      });
    },
    init(api) {
      database = api.db;
    },
  });
}

export const incidentPlugin = createIncidentPlugin();
