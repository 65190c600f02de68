export type { Database, DatabaseHandle, DatabaseKind, PluginMigrations } from './database.ts';
export { journalTableFor } from './database.ts';
export type { CreateDatabaseOptions } from './create-database.ts';
export { connectPostgres, createDatabase, openPglite, redactUrl } from './create-database.ts';
export { prepared } from './prepared.ts';
export { isUniqueViolation } from './errors.ts';
export { queryRows } from './rows.ts';
export { idLinks } from './id-links.ts';
export {
  keysetOrder,
  selectKeysetRows,
  type KeyKind,
  type KeysetOrder,
  type KeysetRow,
} from './keyset.ts';
