import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './keyset-pages.ts';

const kinds = ['timestamp', 'text', 'uuid'] as const;
const key = [
  '2030-01-01T00:00:00.000001+00:00',
  'payments',
  '7a3c1d2e-4b5f-4a6b-8c7d-9e0f1a2b3c4d',
];
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('cursors', () => {
  it('give back the key they were made from, for their own list only', () => {
    const cursor = encodeCursor('catalog.systems', key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('catalog.systems', kinds, cursor)).toEqual(key);
    expect(() => decodeCursor('auth.users', kinds, cursor)).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        data: { issues: [{ path: 'cursor', message: 'This cursor belongs to another list' }] },
      }),
    );
  });

  it.each([
    ['characters outside base64url', 'a+b/c='],
    ['bytes that are not JSON', Buffer.from('{"list":').toString('base64url')],
    ['JSON of another shape', raw(['catalog.systems', key])],
    ['a key one value short', raw({ list: 'catalog.systems', key: key.slice(1) })],
    ['a number for a text', raw({ list: 'catalog.systems', key: [key[0], 7, key[2]] })],
    ['no uuid', raw({ list: 'catalog.systems', key: [key[0], key[1], 'x'] })],
    [
      'a day February never has',
      raw({ list: 'catalog.systems', key: ['2030-02-31T00:00:00Z', key[1], key[2]] }),
    ],
    [
      'a time without offset',
      raw({ list: 'catalog.systems', key: ['2030-01-01T00:00:00', key[1], key[2]] }),
    ],
    ['a NUL in a text', raw({ list: 'catalog.systems', key: [key[0], 'a\u0000b', key[2]] })],
    [
      'a lone surrogate in a text',
      raw({ list: 'catalog.systems', key: [key[0], 'a\ud800', key[2]] }),
    ],
  ])('refuse %s with BAD_REQUEST on `cursor`, before any query', (_case, cursor) => {
    expect(() => decodeCursor('catalog.systems', kinds, cursor)).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        data: { issues: [expect.objectContaining({ path: 'cursor' })] },
      }),
    );
  });
});
