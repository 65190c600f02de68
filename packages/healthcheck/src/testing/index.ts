export { fixedResolver } from './resolver.ts';
