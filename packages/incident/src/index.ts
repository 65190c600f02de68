export { incidentAccess } from './access.ts';
export { incidentContract, type IncidentContract } from './contract.ts';
export {
  incidentCreated,
  incidentResolved,
  incidentUpdated,
  type IncidentEvent,
} from './events.ts';
export { createIncidentPlugin, incidentPlugin } from './plugin.ts';
export { incidentRouter } from './router.ts';
export * from './schemas.ts';
