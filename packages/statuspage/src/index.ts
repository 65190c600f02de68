export { statuspageAccess } from './access.ts';
export { statuspageContract, type StatuspageContract } from './contract.ts';
export {
  createStatuspagePlugin,
  statuspagePlugin,
  type StatuspagePluginOptions,
} from './plugin.ts';
export { createStatuspageRouter } from './router.ts';
export * from './public-schemas.ts';
export * from './schemas.ts';
