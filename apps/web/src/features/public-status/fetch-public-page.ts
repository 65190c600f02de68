import type { ApiClient } from '../../api/client.ts';

export type PublicPage = Awaited<ReturnType<ApiClient['statuspage']['getPublicPage']>>;
export type PublicItem = PublicPage['sections'][number]['items'][number];
export type PublicIncident = PublicPage['activeIncidents'][number];
export type PublicStatus = PublicPage['status'];

/** The anonymous routes of a page (JSON, feed, badge, subscribe), relative to the server's origin. */
export const publicPageUrls = (slug: string) => {
  const base = `/api/statuspage/public/${encodeURIComponent(slug)}`;
  return {
    json: base,
    feed: `${base}/feed.atom`,
    badge: `${base}/badge.svg`,
    subscribe: `${base}/subscribe`,
  };
};

/**
 * A published page as anyone sees it, or null when the slug names none. It reads the cached
 * anonymous route, not a procedure: no cookie is sent (the answer is the same for everyone), and
 * the browser revalidates with the route's ETag.
 */
export async function fetchPublicPage(slug: string): Promise<PublicPage | null> {
  const response = await fetch(publicPageUrls(slug).json, {
    credentials: 'omit',
    headers: { accept: 'application/json' },
  });
  if (response.status === 404) return null;
  if (!response.ok) {
    throw new Error(`The status page could not be loaded (HTTP ${response.status}).`);
  }
  return (await response.json()) as PublicPage;
}
