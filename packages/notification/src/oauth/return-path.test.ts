import { describe, expect, it } from 'vitest';
import { linkedUrl } from './return-path.ts';

describe('the return after linking', () => {
  it('adds linked=<strategyId> on the frontend', () => {
    expect(
      linkedUrl('https://app.example/ui', '/settings/notifications?tab=1', 'slack.slack'),
    ).toBe('https://app.example/ui/settings/notifications?tab=1&linked=slack.slack');
  });

  it('puts linked=<strategyId> before a kept fragment', () => {
    expect(linkedUrl('https://app.example', '/settings#chat', 'slack.slack')).toBe(
      'https://app.example/settings?linked=slack.slack#chat',
    );
  });
});
