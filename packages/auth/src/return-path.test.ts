import { describe, expect, it } from 'vitest';
import { relativeReturnPath } from './return-path.ts';

describe('relativeReturnPath', () => {
  it('keeps a path on the frontend with its query and fragment', () => {
    expect(relativeReturnPath('/systems/42?tab=checks#latest')).toBe(
      '/systems/42?tab=checks#latest',
    );
  });

  it('answers the root when no path is given', () => {
    expect(relativeReturnPath(null)).toBe('/');
    expect(relativeReturnPath('')).toBe('/');
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'systems/42',
    '/\tevil',
    '/ok\nSet-Cookie: x=1',
    `/${'a'.repeat(2_000)}`,
  ])('refuses %j', (value) => {
    expect(relativeReturnPath(value)).toBeUndefined();
  });
});
