export { maintenanceAccess } from './access.ts';
export { maintenanceContract, type MaintenanceContract } from './contract.ts';
export {
  maintenanceEnded,
  maintenanceStarted,
  maintenanceWindowChanged,
  type MaintenanceEvent,
} from './events.ts';
export {
  createMaintenancePlugin,
  maintenancePlugin,
  type MaintenancePluginOptions,
} from './plugin.ts';
export { maintenanceRouter } from './router.ts';
export * from './schemas.ts';
