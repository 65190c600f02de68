import { fileURLToPath } from 'node:url';
import { definePlugin } from '@checkline/core';
import { catalogAccess } from './access.ts';
import { catalogContract } from './contract.ts';
import { catalogRouter } from './router.ts';

export const catalogPlugin = definePlugin({
  id: 'catalog',
  dependsOn: [],
  description: 'Systems (the services and resources you monitor) and named groups of systems.',
  contract: catalogContract,
  router: catalogRouter,
  accessRules: Object.values(catalogAccess),
  migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
});
