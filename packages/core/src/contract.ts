// Browser-safe entry: contracts import only this, zod and @orpc/contract.
export * from './access-rules.ts';
export * from './errors.ts';
export * from './raises.ts';
export * from './meta.ts';
export * from './principal.ts';
export * from './procedure.ts';
export * from './page.ts';
export * from './events.ts';
export * from './input-guard.ts';
export * from './timestamp.ts';
