export type {
  Database,
  DatabaseHandle,
  DatabaseKind,
  DatabaseListen,
  PluginMigrations,
} from './database.ts';
export { journalTableFor } from './database.ts';
export type { CreateDatabaseOptions } from './create-database.ts';
export { connectPostgres, createDatabase, openPglite, redactUrl } from './create-database.ts';
export { prepared } from './prepared.ts';
export {
  isDatabaseUnavailable,
  isUniqueViolation,
  redactDatabaseError,
  uniqueOr,
} from './errors.ts';
export {
  DISK_FULL_MESSAGE,
  DatabaseDiskFullError,
  isDiskFull,
  noteDiskFull,
  rootCauseOf,
} from './disk-full.ts';
export { queryRows } from './rows.ts';
export { idLinks } from './id-links.ts';
export {
  keysetOrder,
  selectKeysetRows,
  type KeyKind,
  type KeysetOrder,
  type KeysetRow,
} from './keyset.ts';
export type { OutageLog, OutageLogger } from './outage-log.ts';
export { createOutageLog } from './outage-log.ts';
export type { WaitForDatabaseOptions } from './wait-for-database.ts';
export { waitForDatabase } from './wait-for-database.ts';
export type { DataFolderLock } from './data-folder-lock.ts';
export { DataFolderLockedError, lockDataFolder } from './data-folder-lock.ts';
export {
  eventOutbox,
  idempotencyKeys,
  infrastructureSchema,
  rateLimits,
} from './infrastructure/schema.ts';
export { infrastructureMigrations } from './infrastructure/migrations.ts';
export type { PoolStats } from './pool-stats.ts';
