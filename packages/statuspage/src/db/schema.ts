import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { instant, writtenAt } from '@checkline/db/columns';
import type { PageSection } from '../schemas.ts';

export const statuspageSchema = pgSchema('statuspage');

export const pages = statuspageSchema.table(
  'pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    logoUrl: text('logo_url'),
    brandColor: text('brand_color'),
    customDomain: text('custom_domain'),
    /** Catalog ids, deliberately without foreign keys across plugins. */
    sections: jsonb('sections').$type<PageSection[]>().notNull().default([]),
    published: boolean('published').notNull().default(false),
    createdAt: writtenAt('created_at'),
    updatedAt: writtenAt('updated_at'),
  },
  (table) => [
    uniqueIndex('pages_slug_idx').on(table.slug),
    uniqueIndex('pages_custom_domain_idx').on(table.customDomain),
  ],
);

/**
 * A visitor's e-mail subscription to a page, without an account: `pending` until the
 * confirmation link is followed, then `confirmed`. Only the confirmation token's SHA-256 is
 * kept, and only until it is used; an unsubscribe link is an HMAC of the row's id, so deleting
 * the row voids every link ever sent for it.
 */
export const subscribers = statuspageSchema.table(
  'subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pageId: uuid('page_id')
      .notNull()
      .references(() => pages.id, { onDelete: 'cascade' }),
    /** Trimmed and lowercased. */
    email: text('email').notNull(),
    status: text('status').$type<'pending' | 'confirmed'>().notNull().default('pending'),
    confirmTokenHash: text('confirm_token_hash'),
    confirmExpiresAt: instant('confirm_expires_at'),
    confirmedAt: instant('confirmed_at'),
    createdAt: writtenAt('created_at'),
  },
  (table) => [
    uniqueIndex('subscribers_page_email_idx').on(table.pageId, table.email),
    uniqueIndex('subscribers_confirm_token_idx').on(table.confirmTokenHash),
    check('subscribers_status_check', sql`${table.status} in ('pending', 'confirmed')`),
  ],
);

/** Which event each subscriber was mailed about: a redelivered event mails nobody twice. */
export const sentMails = statuspageSchema.table(
  'sent_mails',
  {
    subscriberId: uuid('subscriber_id')
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    sentAt: writtenAt('sent_at'),
  },
  (table) => [primaryKey({ columns: [table.subscriberId, table.eventId] })],
);
