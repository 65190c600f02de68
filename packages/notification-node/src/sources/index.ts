export * from './alert-facts.ts';
export * from './source.ts';
export * from './lifecycle-sources.ts';
