import { describe, expect, it } from 'vitest';
import { groupRulesByPlugin } from './group-rules.ts';

describe('groupRulesByPlugin', () => {
  it('groups rules under their plugin, plugins and rules in name order', () => {
    const rule = (id: string) => ({ id, pluginId: id.split('.')[0]!, description: `about ${id}` });
    const groups = groupRulesByPlugin([
      rule('notification.strategy.smtp.use'),
      rule('auth.users.manage'),
      rule('catalog.catalog.read'),
      rule('auth.audit.read'),
      rule('notification.notifications.read'),
    ]);
    expect(groups.map(([pluginId, rules]) => [pluginId, rules.map((r) => r.id)])).toEqual([
      ['auth', ['auth.audit.read', 'auth.users.manage']],
      ['catalog', ['catalog.catalog.read']],
      ['notification', ['notification.notifications.read', 'notification.strategy.smtp.use']],
    ]);
  });

  it('answers no group for no rules', () => {
    expect(groupRulesByPlugin([])).toEqual([]);
  });
});
