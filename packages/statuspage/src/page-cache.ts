import { createHash } from 'node:crypto';
import type { PublicPage } from './public-schemas.ts';

/** A built answer: the page, its JSON and the ETag of that JSON. */
export interface CachedPage {
  page: PublicPage;
  json: string;
  etag: string;
  builtAt: number;
}

export interface PageCacheOptions {
  /** Reads the published page at `slug` and builds its answer; undefined when there is none. */
  build(slug: string): Promise<PublicPage | undefined>;
  /** How long an answer is served at most, for what no event announces (another process's changes, days passing). */
  maxAgeMs: number;
  now?: () => number;
}

const entryOf = (page: PublicPage, builtAt: number): CachedPage => {
  const json = JSON.stringify(page);
  return {
    page,
    json,
    etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    builtAt,
  };
};

/**
 * Answers of published pages kept in memory. A read of a fresh entry does no database work;
 * `invalidate` drops entries so the next read rebuilds them. Concurrent reads of a missing entry
 * share one build, and a build that an invalidation overtook is answered but not kept.
 */
export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, CachedPage | null>();
  const building = new Map<string, Promise<CachedPage | null>>();
  let generation = 0;
  let builds = 0;

  function fresh(slug: string): CachedPage | null | undefined {
    const entry = entries.get(slug);
    if (entry === undefined) return undefined;
    if (entry !== null && now() - entry.builtAt > options.maxAgeMs) return undefined;
    return entry;
  }

  async function build(slug: string): Promise<CachedPage | null> {
    const started = generation;
    builds += 1;
    const page = await options.build(slug);
    const entry = page ? entryOf(page, now()) : null;
    if (generation === started) entries.set(slug, entry);
    return entry;
  }

  return {
    /** The answer of the published page at `slug`, or null when there is none. */
    async read(slug: string): Promise<CachedPage | null> {
      const cached = fresh(slug);
      if (cached !== undefined) return cached;
      const joined = building.get(slug);
      if (joined) return joined;
      const pending: Promise<CachedPage | null> = build(slug).finally(() => {
        if (building.get(slug) === pending) building.delete(slug);
      });
      building.set(slug, pending);
      return pending;
    },
    /** Drops the given pages' answers, or every answer. */
    invalidate(slugs?: readonly string[]) {
      generation += 1;
      if (slugs === undefined) {
        entries.clear();
        building.clear();
      } else {
        for (const slug of slugs) {
          entries.delete(slug);
          building.delete(slug);
        }
      }
    },
    /** How many builds ran (each reads the database): tests and the bench. */
    builds: () => builds,
  };
}

export type PageCache = ReturnType<typeof createPageCache>;
