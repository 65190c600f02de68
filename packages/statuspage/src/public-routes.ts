import type { PluginRoute } from '@checkline/core';
import { statusBadge } from './badge.ts';
import { atomFeed } from './feed.ts';
import type { CachedPage, PageCache } from './page-cache.ts';
import { SlugSchema } from './schemas.ts';

/** Relative to the plugin's prefix: answered at `/api/statuspage/public/:slug`. */
const PUBLIC_PATH = '/public/:slug';

/** Shared caches may keep an answer briefly; the ETag makes a revalidation cheap. */
const CACHE_CONTROL = 'public, max-age=15, stale-while-revalidate=30';

const notFound = (requestId: string) =>
  Response.json(
    { code: 'NOT_FOUND', message: 'Status page not found', requestId },
    { status: 404, headers: { 'cache-control': 'no-store' } },
  );

/** Whether `If-None-Match` names the entry's ETag (a list, weak or strong, or `*`). */
function matches(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Serves a cached page: 304 when the caller already holds this version, else `render(entry)`
 * with the ETag and caching headers. Unknown, unpublished and malformed slugs answer 404 alike.
 */
function cachedRoute(
  cache: PageCache,
  etagSuffix: string,
  render: (entry: CachedPage) => { body: string; type: string },
): PluginRoute['handle'] {
  return async (request, params, meta) => {
    const slug = SlugSchema.safeParse(params.slug);
    const entry = slug.success ? await cache.read(slug.data) : null;
    if (!entry) return notFound(meta.requestId);
    const etag = `${entry.etag.slice(0, -1)}${etagSuffix}"`;
    const headers = { etag, 'cache-control': CACHE_CONTROL, vary: 'accept-encoding' };
    if (matches(request, etag)) return new Response(null, { status: 304, headers });
    const { body, type } = render(entry);
    return new Response(body, { status: 200, headers: { ...headers, 'content-type': type } });
  };
}

const slugParameter = {
  name: 'slug',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 60 },
};

const describe = (
  path: string,
  operationId: string,
  summary: string,
  type: string,
  // The JSON page is the `StatusPagePublic` component; the badge and the feed are text.
  schema: Record<string, unknown> = { type: 'string' },
) => ({
  [path]: {
    get: {
      tags: ['statuspage'],
      operationId,
      summary,
      description:
        'Open to everyone, no credentials. Served from memory; answers `ETag` and `Cache-Control`, and 304 to a matching `If-None-Match`.',
      security: [],
      parameters: [slugParameter],
      responses: {
        '200': {
          description: 'The published page.',
          content: { [type]: { schema } },
        },
        '304': { description: 'The caller holds this version already.' },
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  },
});

/** The anonymous routes of published pages: JSON, the badge and the Atom feed. */
export function publicRoutes(
  cache: PageCache,
  urls: { publicUrl: string; apiUrl: string },
): PluginRoute[] {
  return [
    {
      method: 'GET',
      path: PUBLIC_PATH,
      handle: cachedRoute(cache, '', (entry) => ({
        body: entry.json,
        type: 'application/json',
      })),
      openapi: () =>
        describe(
          '/public/{slug}',
          'statuspage.publicPage',
          'A published status page as JSON (the answer of getPublicPage).',
          'application/json',
          { $ref: '#/components/schemas/StatusPagePublic' },
        ),
    },
    {
      method: 'GET',
      path: `${PUBLIC_PATH}/badge.svg`,
      handle: cachedRoute(cache, '-badge', (entry) => ({
        body: statusBadge(entry.page.title, entry.page.status),
        type: 'image/svg+xml',
      })),
      openapi: () =>
        describe(
          '/public/{slug}/badge.svg',
          'statuspage.badge',
          "A published page's overall status as an SVG badge, for READMEs.",
          'image/svg+xml',
        ),
    },
    {
      method: 'GET',
      path: `${PUBLIC_PATH}/feed.atom`,
      handle: cachedRoute(cache, '-atom', (entry) => ({
        body: atomFeed(
          entry.page,
          `${urls.publicUrl}/status/${entry.page.slug}`,
          `${urls.apiUrl}/api/statuspage/public/${entry.page.slug}/feed.atom`,
        ),
        type: 'application/atom+xml; charset=utf-8',
      })),
      openapi: () =>
        describe(
          '/public/{slug}/feed.atom',
          'statuspage.feed',
          "A published page's incidents (active and resolved in the last 30 days) and maintenance as an Atom feed.",
          'application/atom+xml',
        ),
    },
  ];
}
