import { sql } from 'drizzle-orm';
import { check, index, pgSchema, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { instant } from '@checkline/db/columns';

export const maintenanceSchema = pgSchema('maintenance');

export const windows = maintenanceSchema.table(
  'windows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startAt: instant('start_at').notNull(),
    endAt: instant('end_at').notNull(),
    /** When the ticker announced the start; set at once for windows written wholly in the past. */
    startedNotifiedAt: instant('started_notified_at'),
    endedNotifiedAt: instant('ended_notified_at'),
    createdAt: instant('created_at').notNull().defaultNow(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check('windows_period_check', sql`${table.startAt} < ${table.endAt}`),
    index('windows_end_at_idx').on(table.endAt),
    // The order of getWindows pages.
    index('windows_start_at_id_idx').on(table.startAt, table.id),
    index('windows_start_pending_idx')
      .on(table.startAt)
      .where(sql`${table.startedNotifiedAt} is null`),
    index('windows_end_pending_idx')
      .on(table.endAt)
      .where(sql`${table.endedNotifiedAt} is null`),
  ],
);

/** Systems a window covers: catalog ids, deliberately without a foreign key across plugins. */
export const windowSystems = maintenanceSchema.table(
  'window_systems',
  {
    windowId: uuid('window_id')
      .notNull()
      .references(() => windows.id, { onDelete: 'cascade' }),
    systemId: uuid('system_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.windowId, table.systemId] }),
    index('window_systems_system_id_idx').on(table.systemId),
  ],
);
