export { catalogAccess, SYSTEM_RESOURCE } from './access.ts';
export { catalogContract, type CatalogContract } from './contract.ts';
export { catalogPlugin } from './plugin.ts';
export { catalogRouter } from './router.ts';
export * from './schemas.ts';
export { systemDeleted } from './events.ts';
export * as catalogService from './service.ts';
export { assertSystemsExist, existingSystems } from './assert-systems-exist.ts';
export { catalogSystemDirectory } from './system-directory.ts';
