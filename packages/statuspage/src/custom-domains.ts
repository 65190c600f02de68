import type { HostClaim } from '@checkline/core';

export interface DomainMapOptions {
  /** Custom domain to slug, of every published page that has one. */
  load(): Promise<Map<string, string>>;
  /** How long a loaded map is used at most, for what no event announces (another process's changes). */
  maxAgeMs: number;
  now?: () => number;
}

/**
 * Published pages' custom domains, kept in memory like their answers: a request to a custom
 * domain costs no database work while the map is fresh. Loads are shared; `invalidate` (any page
 * change) makes the next request load again.
 */
export function createDomainMap(options: DomainMapOptions) {
  const now = options.now ?? Date.now;
  let loaded: { map: Map<string, string>; at: number } | undefined;
  let loading: Promise<Map<string, string>> | undefined;
  let generation = 0;

  async function current(): Promise<Map<string, string>> {
    if (loaded && now() - loaded.at <= options.maxAgeMs) return loaded.map;
    if (!loading) {
      const started = generation;
      loading = options.load().then(
        (map) => {
          if (generation === started) loaded = { map, at: now() };
          loading = undefined;
          return map;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
    }
    return loading;
  }

  return {
    /** The slug of the published page served at `host`, if any. */
    async slugFor(host: string): Promise<string | undefined> {
      return (await current()).get(host);
    },
    invalidate() {
      generation += 1;
      loaded = undefined;
      loading = undefined;
    },
  };
}

export type DomainMap = ReturnType<typeof createDomainMap>;

/**
 * What a page's custom domain serves: `/` leads to the page's UI address, which is served there
 * with the UI's files, the page's anonymous routes and the subscription links; nothing else.
 */
export function pageHostClaim(slug: string): HostClaim {
  return {
    home: `/status/${slug}`,
    paths: [`/status/${slug}`, `/api/statuspage/public/${slug}`, '/api/statuspage/subscriptions'],
  };
}
