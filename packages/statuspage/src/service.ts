import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import { conflict, notFound } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder, prepared, uniqueOr } from '@checkline/db';
import { eq, sql } from 'drizzle-orm';
import { pages } from './db/schema.ts';
import { listedSystemIds, withoutSystem } from './page-items.ts';
import type { CreatePageInput, GetPagesInput, Page, PageList, UpdatePageInput } from './schemas.ts';

type PageRow = typeof pages.$inferSelect;

function toPage(row: PageRow): Page {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    logoUrl: row.logoUrl,
    brandColor: row.brandColor,
    customDomain: row.customDomain,
    sections: row.sections,
    published: row.published,
    systemIds: listedSystemIds(row.sections),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const slugOrDomainTaken = () => conflict('That slug or custom domain is already taken');

const selectPageById = prepared((db) =>
  db
    .select()
    .from(pages)
    .where(eq(pages.id, sql.placeholder('id')))
    .prepare('statuspage_page_by_id'),
);

export async function getPage(db: Database, id: string): Promise<Page> {
  const [row] = await selectPageById(db).execute({ id });
  if (!row) throw notFound('Status page', id);
  return toPage(row);
}

const selectPublishedBySlug = prepared((db) =>
  db
    .select()
    .from(pages)
    .where(sql`${pages.slug} = ${sql.placeholder('slug')} and ${pages.published}`)
    .prepare('statuspage_published_by_slug'),
);

/** The published page at `slug`, or undefined (unknown and unpublished alike). */
export async function findPublishedPage(db: Database, slug: string): Promise<Page | undefined> {
  const [row] = await selectPublishedBySlug(db).execute({ slug });
  return row && toPage(row);
}

const pageList = keysetPages('statuspage.pages', keysetOrder([pages.slug]));

export async function listPages(
  db: Database,
  input: GetPagesInput,
  scope: PageScope,
): Promise<PageList> {
  const { items, nextCursor } = await pageList.read(db, pages, input, scope, (rows) =>
    rows.map(toPage),
  );
  return { pages: items, nextCursor };
}

export async function createPage(db: Database, input: CreatePageInput): Promise<Page> {
  const [row] = await uniqueOr(
    () =>
      db
        .insert(pages)
        .values({
          slug: input.slug,
          title: input.title,
          description: input.description ?? '',
          logoUrl: input.logoUrl ?? null,
          brandColor: input.brandColor ?? null,
          customDomain: input.customDomain ?? null,
          sections: input.sections ?? [],
        })
        .returning(),
    slugOrDomainTaken,
  );
  return toPage(row!);
}

export async function updatePage(db: Database, input: UpdatePageInput): Promise<Page> {
  const { id, ...fields } = input;
  const [row] = await uniqueOr(
    () =>
      db
        .update(pages)
        .set({ ...fields, updatedAt: sql`clock_timestamp()` })
        .where(eq(pages.id, id))
        .returning(),
    slugOrDomainTaken,
  );
  if (!row) throw notFound('Status page', id);
  return toPage(row);
}

export async function setPublished(db: Database, id: string, published: boolean): Promise<Page> {
  const [row] = await db
    .update(pages)
    .set({ published, updatedAt: sql`clock_timestamp()` })
    .where(eq(pages.id, id))
    .returning();
  if (!row) throw notFound('Status page', id);
  return toPage(row);
}

export async function deletePage(db: Database, id: string) {
  const [row] = await db.delete(pages).where(eq(pages.id, id)).returning({ id: pages.id });
  if (!row) throw notFound('Status page', id);
  return { id: row.id, deleted: true as const };
}

/** Takes a deleted catalog system off every page; answers the slugs of the pages changed. */
export async function detachSystem(db: Database, systemId: string): Promise<string[]> {
  const rows = await db
    .select()
    .from(pages)
    .where(sql`${pages.sections}::text like ${`%${systemId}%`}`)
    .for('update');
  const changed: string[] = [];
  for (const row of rows) {
    const sections = withoutSystem(row.sections, systemId);
    if (!sections) continue;
    await db.update(pages).set({ sections }).where(eq(pages.id, row.id));
    changed.push(row.slug);
  }
  return changed;
}

/** Every published page (pages are few: an installation has a handful). */
export async function publishedPages(db: Database): Promise<Page[]> {
  const rows = await db.select().from(pages).where(eq(pages.published, true));
  return rows.map(toPage);
}

/** Custom domain to slug, of published pages that have one. */
export async function publishedDomains(db: Database): Promise<Map<string, string>> {
  const rows = await db
    .select({ slug: pages.slug, customDomain: pages.customDomain })
    .from(pages)
    .where(sql`${pages.published} and ${pages.customDomain} is not null`);
  return new Map(rows.map((row) => [row.customDomain!, row.slug]));
}
