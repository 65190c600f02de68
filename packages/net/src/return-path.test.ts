import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.ts';

describe('safeReturnPath', () => {
  describe('works', () => {
    it('keeps a path on the frontend with its query and fragment', () => {
      expect(safeReturnPath('/systems/42?tab=checks#latest')).toBe('/systems/42?tab=checks#latest');
      expect(safeReturnPath('/settings/notifications')).toBe('/settings/notifications');
    });

    it('normalises dot segments', () => {
      expect(safeReturnPath('/settings/a/../channels?tab=chat')).toBe(
        '/settings/channels?tab=chat',
      );
    });

    it('answers the fallback when no path is given', () => {
      expect(safeReturnPath(null)).toBe('/');
      expect(safeReturnPath(undefined)).toBe('/');
      expect(safeReturnPath('')).toBe('/');
      expect(safeReturnPath(undefined, '/settings/notifications')).toBe('/settings/notifications');
    });

    it('keeps an encoded line break encoded, on our origin', () => {
      expect(safeReturnPath('/%0d%0aLocation:x')).toBe('/%0d%0aLocation:x');
    });

    it('keeps a path of the longest length', () => {
      const longest = `/${'a'.repeat(511)}`;
      expect(safeReturnPath(longest)).toBe(longest);
    });
  });

  describe('refuses', () => {
    it.each([
      ['an absolute URL', 'https://evil.example/'],
      ['a scheme', 'javascript:alert(1)'],
      ['a protocol-relative URL', '//evil.example/path'],
      ['a path normalising to //host', '/..//evil.example/x'],
      ['a dot path normalising to //host', '/./\t/evil.example'],
      ['a backslash after the slash', '/\\evil.example'],
      ['two backslashes', '\\\\evil.example'],
      ['a relative path', 'systems/42'],
      ['a tab', '/\tevil'],
      ['a line break', '/ok\nSet-Cookie: x=1'],
      ['a carriage return', '/ok\r\nx'],
      ['a NUL', '/ok\u0000x'],
      ['a C1 control character', '/ok\u0085x'],
      ['a no-break space', '/ok\u00a0x'],
      ['a line separator', '/ok\u2028x'],
      ['a zero-width space', '/ok\u200bx'],
      ['a right-to-left override', '/ok\u202ex'],
      ['a path longer than 512 characters', `/${'a'.repeat(512)}`],
      ['a path of 2 000 characters', `/${'a'.repeat(2_000)}`],
    ])('%s', (_what, value) => {
      expect({ value, kept: safeReturnPath(value) }).toEqual({ value, kept: undefined });
    });
  });
});
