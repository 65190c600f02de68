import { describe, expect, it } from 'vitest';
import type { CacheInvalidation } from './cache-invalidation.ts';
import { decodeInvalidation, encodeInvalidation } from './cache-invalidation.ts';

describe('cache invalidation payloads', () => {
  it.each<CacheInvalidation>([
    { kind: 'application', id: '0b0e3c8e-4f1a-4c55-9d0e-2f2d5f7b1a11' },
    { kind: 'user', id: '5a0e3c8e-4f1a-4c55-9d0e-2f2d5f7b1a11' },
    { kind: 'grants', resourceType: 'catalog.system' },
    { kind: 'everything' },
  ])('reads back what it wrote: %o', (invalidation) => {
    expect(decodeInvalidation(encodeInvalidation(invalidation))).toEqual(invalidation);
  });

  it.each(['', 'user', 'user:', 'session:abc', 'grants:', 'nonsense'])(
    'drops everything for a payload it does not understand: %j',
    (payload) => {
      expect(decodeInvalidation(payload)).toEqual({ kind: 'everything' });
    },
  );
});
