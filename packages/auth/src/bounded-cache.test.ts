import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.ts';

describe('BoundedCache', () => {
  it('forgets entries when they expire', () => {
    let now = 1_000;
    const cache = new BoundedCache<string>(10, () => now);
    cache.set('a', 'A', 2_000, 'tag');
    expect(cache.get('a')).toBe('A');
    now = 2_000;
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 'B', 1_500, 'tag');
    expect(cache.get('b')).toBeUndefined();
  });

  it('drops the oldest entry past its size', () => {
    const cache = new BoundedCache<number>(2);
    const later = Date.now() + 60_000;
    cache.set('a', 1, later, 'x');
    cache.set('b', 2, later, 'x');
    cache.set('c', 3, later, 'y');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    expect(cache.size).toBe(2);
  });

  it('drops every entry of a tag at once', () => {
    const cache = new BoundedCache<number>(10);
    const later = Date.now() + 60_000;
    cache.set('a', 1, later, 'app-1');
    cache.set('b', 2, later, 'app-1');
    cache.set('c', 3, later, 'app-2');
    cache.deleteTag('app-1');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, 3]);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
