import { sql } from 'drizzle-orm';
import { check, index, pgSchema, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { instant, writtenAt } from '@checkline/db/columns';
import type { PrincipalKind } from '@checkline/core/contract';
import type { IncidentStatus, Severity } from '../schemas.ts';

export const incidentSchema = pgSchema('incident');

export const incidents = incidentSchema.table(
  'incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    severity: text('severity').$type<Severity>().notNull(),
    status: text('status').$type<IncidentStatus>().notNull().default('investigating'),
    resolvedAt: instant('resolved_at'),
    createdAt: writtenAt('created_at'),
    updatedAt: writtenAt('updated_at'),
  },
  (table) => [
    check('incidents_severity_check', sql`${table.severity} in ('minor', 'major', 'critical')`),
    check(
      'incidents_status_check',
      sql`${table.status} in ('investigating', 'identified', 'monitoring', 'resolved')`,
    ),
    index('incidents_created_at_idx').on(table.createdAt),
  ],
);

/** Systems an incident affects: catalog ids, deliberately without a foreign key across plugins. */
export const incidentSystems = incidentSchema.table(
  'incident_systems',
  {
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    systemId: uuid('system_id').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.incidentId, table.systemId] }),
    index('incident_systems_system_id_idx').on(table.systemId),
  ],
);

/** The timeline: one row per status change or message. */
export const incidentUpdates = incidentSchema.table(
  'incident_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    status: text('status').$type<IncidentStatus>().notNull(),
    message: text('message'),
    authorId: text('author_id'),
    authorKind: text('author_kind').$type<PrincipalKind>().notNull(),
    createdAt: writtenAt('created_at'),
  },
  (table) => [index('incident_updates_incident_id_idx').on(table.incidentId, table.createdAt)],
);
