export { color, destination, hasMark, secret } from './schema-marks.ts';
export type { Mark } from './schema-marks.ts';
export { ANY_KEY, markedFields, secretFieldPaths } from './field-paths.ts';
export type { MarkedField } from './field-paths.ts';
export { publishedJsonSchema } from './published-json-schema.ts';
export {
  boundSecretFields,
  changedDestinations,
  destinationIdentity,
  forEachFieldSlot,
  mergeStoredSecrets,
} from './bound-secrets.ts';
export type { BoundSecretFields, DestinationField, SecretMerge } from './bound-secrets.ts';
