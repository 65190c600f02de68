import { describe, expect, it } from 'vitest';
import { orderPlugins } from './plugin-order.ts';

const plugin = (id: string, ...dependsOn: string[]) => ({ id, dependsOn });
const ids = (plugins: readonly { id: string }[]) => plugins.map((each) => each.id);

describe('orderPlugins', () => {
  it('puts every plugin after the plugins it depends on', () => {
    const ordered = orderPlugins([
      plugin('channel', 'notification'),
      plugin('healthcheck', 'catalog', 'maintenance'),
      plugin('notification', 'auth', 'catalog'),
      plugin('maintenance', 'catalog'),
      plugin('catalog'),
      plugin('auth'),
    ]);
    for (const each of ordered) {
      for (const dependency of each.dependsOn) {
        expect(ids(ordered).indexOf(dependency)).toBeLessThan(ids(ordered).indexOf(each.id));
      }
    }
    expect(ordered).toHaveLength(6);
  });

  it('keeps the given order where no dependency asks otherwise', () => {
    expect(ids(orderPlugins([plugin('auth'), plugin('catalog'), plugin('incident')]))).toEqual([
      'auth',
      'catalog',
      'incident',
    ]);
  });

  it('fails naming the plugin and the dependency that is not mounted', () => {
    expect(() => orderPlugins([plugin('catalog'), plugin('healthcheck', 'maintenance')])).toThrow(
      'Plugin healthcheck depends on maintenance, which is not mounted',
    );
  });

  it('tolerates only the missing dependencies a harness names as absent', () => {
    const plugins = [plugin('notification', 'auth', 'catalog'), plugin('catalog')];
    expect(ids(orderPlugins(plugins, ['auth']))).toEqual(['catalog', 'notification']);
    expect(() => orderPlugins(plugins, ['maintenance'])).toThrow(
      'Plugin notification depends on auth, which is not mounted',
    );
  });

  it('fails naming the plugins of a cycle', () => {
    expect(() =>
      orderPlugins([plugin('a', 'b'), plugin('b', 'c'), plugin('c', 'a'), plugin('d')]),
    ).toThrow('Plugin dependency cycle: a -> b -> c -> a');
  });

  it('refuses a plugin listed twice', () => {
    expect(() => orderPlugins([plugin('catalog'), plugin('catalog')])).toThrow(
      'Plugin catalog is listed twice',
    );
  });
});
