export * from './alert-facts.ts';
export * from './source.ts';
