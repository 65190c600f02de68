import { describe, expect, it } from 'vitest';
import { createPageCache } from './page-cache.ts';
import type { PublicPage } from './public-schemas.ts';

const pageTitled = (title: string): PublicPage => ({
  slug: 'acme',
  title,
  description: '',
  logoUrl: null,
  brandColor: null,
  status: 'operational',
  sections: [],
  activeIncidents: [],
  recentIncidents: [],
  maintenance: [],
  generatedAt: '2026-01-01T00:00:00.000Z',
});

/** A cache over a build whose answers the test releases one at a time. */
function cacheWithManualBuilds(maxAgeMs = 60_000) {
  let clock = 0;
  const pending: { slug: string; release: (page: PublicPage | undefined) => void }[] = [];
  const cache = createPageCache({
    maxAgeMs,
    now: () => clock,
    build: (slug) =>
      new Promise((resolve) => {
        pending.push({ slug, release: resolve });
      }),
  });
  const settle = async () => new Promise((resolve) => setImmediate(resolve));
  return {
    cache,
    pending,
    settle,
    tick: (ms: number) => void (clock += ms),
  };
}

describe('the public page cache', () => {
  it('builds once for concurrent readers and serves the copy afterwards', async () => {
    const { cache, pending } = cacheWithManualBuilds();
    const readers = [cache.read('acme'), cache.read('acme'), cache.read('acme')];
    expect(pending).toHaveLength(1);
    pending[0]!.release(pageTitled('one'));
    const entries = await Promise.all(readers);
    expect(new Set(entries)).toEqual(new Set([entries[0]]));
    expect(JSON.parse(entries[0]!.json)).toEqual(pageTitled('one'));
    expect(await cache.read('acme')).toBe(entries[0]);
    expect(cache.builds()).toBe(1);
  });

  it('gives different answers different ETags and equal answers the same', async () => {
    const { cache, pending, settle } = cacheWithManualBuilds();
    const first = cache.read('acme');
    pending[0]!.release(pageTitled('one'));
    const one = await first;
    cache.invalidate();
    const second = cache.read('acme');
    await settle();
    pending[1]!.release(pageTitled('one'));
    expect((await second)!.etag).toBe(one!.etag);
    cache.invalidate(['acme']);
    const third = cache.read('acme');
    pending[2]!.release(pageTitled('two'));
    expect((await third)!.etag).not.toBe(one!.etag);
  });

  it('does not keep a build that an invalidation overtook', async () => {
    const { cache, pending } = cacheWithManualBuilds();
    const stale = cache.read('acme');
    cache.invalidate();
    const fresh = cache.read('acme');
    expect(pending).toHaveLength(2);
    // The newer build finishes first; the older one must not overwrite it.
    pending[1]!.release(pageTitled('after the change'));
    expect((await fresh)!.page.title).toBe('after the change');
    pending[0]!.release(pageTitled('before the change'));
    expect((await stale)!.page.title).toBe('before the change');
    expect((await cache.read('acme'))!.page.title).toBe('after the change');
    expect(cache.builds()).toBe(2);
  });

  it('remembers a missing page until invalidated, and rebuilds entries past their age', async () => {
    const { cache, pending, tick } = cacheWithManualBuilds(1_000);
    const missing = cache.read('acme');
    pending[0]!.release(undefined);
    expect(await missing).toBeNull();
    expect(await cache.read('acme')).toBeNull();
    expect(pending).toHaveLength(1);
    cache.invalidate(['acme']);
    const found = cache.read('acme');
    pending[1]!.release(pageTitled('one'));
    await found;
    tick(1_001);
    void cache.read('acme');
    expect(pending).toHaveLength(3);
  });
});
