import { describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_PATH, linkedUrl, safeReturnPath } from './return-path.ts';

describe('return paths after linking', () => {
  it('keeps paths of ours, with their query', () => {
    expect(safeReturnPath(undefined)).toBe(DEFAULT_RETURN_PATH);
    expect(safeReturnPath('/settings/notifications')).toBe('/settings/notifications');
    expect(safeReturnPath('/settings/a/../channels?tab=chat')).toBe('/settings/channels?tab=chat');
  });

  it('refuses absolute, protocol-relative and backslash addresses', () => {
    for (const input of [
      'https://evil.example/',
      '//evil.example/x',
      '/..//evil.example/x',
      '/./\t/evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/ok\r\nx',
      'relative/path',
      `/${'a'.repeat(600)}`,
    ]) {
      expect({ input, kept: safeReturnPath(input) }).toEqual({ input, kept: undefined });
    }
  });

  it('keeps an encoded line break encoded, on our origin', () => {
    expect(safeReturnPath('/%0d%0aLocation:x')).toBe('/%0d%0aLocation:x');
  });

  it('adds linked=<strategyId> on the frontend', () => {
    expect(
      linkedUrl('https://app.example/ui', '/settings/notifications?tab=1', 'slack.slack'),
    ).toBe('https://app.example/ui/settings/notifications?tab=1&linked=slack.slack');
  });
});
