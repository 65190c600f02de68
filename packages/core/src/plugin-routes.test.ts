import { describe, expect, it } from 'vitest';
import type { AnyPlugin, PluginRoute } from './plugin.ts';
import { definePlugin } from './plugin.ts';
import { mountedRoutes } from './plugin-routes.ts';

const ok = () => Promise.resolve(new Response('ok'));

function pluginWith(id: string, routes: PluginRoute[], extra: Partial<AnyPlugin> = {}): AnyPlugin {
  return { id, description: id, contract: {}, router: {}, accessRules: [], routes, ...extra };
}

const described = (path: string): PluginRoute => ({
  method: 'POST',
  path,
  handle: ok,
  openapi: () => ({ [path.replace(':token', '{token}')]: { post: { summary: path } } }),
});

describe('mountedRoutes', () => {
  it('mounts every route, and its API reference, under its own plugin prefix', () => {
    const routes = mountedRoutes([
      pluginWith('healthcheck', [described('/heartbeat/:token')]),
      pluginWith('auth', [described('/logout'), described('/:token/start')], {
        routeSegment: 'auth-backend',
      }),
    ]);
    expect(routes.map((route) => [route.pluginId, route.path])).toEqual([
      ['healthcheck', '/api/healthcheck/heartbeat/:token'],
      ['auth', '/api/auth-backend/logout'],
      ['auth', '/api/auth-backend/:token/start'],
    ]);
    expect(routes.map((route) => Object.keys(route.openapi!()))).toEqual([
      ['/api/healthcheck/heartbeat/{token}'],
      ['/api/auth-backend/logout'],
      ['/api/auth-backend/{token}/start'],
    ]);
  });

  it("cannot reach another plugin's paths: an absolute-looking path stays under its own prefix", () => {
    const [route] = mountedRoutes([pluginWith('evil', [described('/api/catalog/getSystems')])]);
    expect(route!.path).toBe('/api/evil/api/catalog/getSystems');
  });

  it("refuses a route segment that is another plugin's id, naming both", () => {
    expect(() =>
      mountedRoutes([
        pluginWith('auth-backend', []),
        pluginWith('auth', [described('/logout')], { routeSegment: 'auth-backend' }),
      ]),
    ).toThrow(
      'Plugin auth mounts its routes under /api/auth-backend, which belongs to auth-backend',
    );
  });

  it.each([
    [{ routeSegment: 'catalog' }, 'route segment "catalog" must start with "notes-"'],
    [{ routes: [described('heartbeat')] }, 'route heartbeat must start with a segment'],
    [{ routes: [described('/')] }, 'route / must start with a segment'],
    [{ routes: [described('/:token')] }, 'route /:token would answer every procedure call'],
    [
      { routes: [described('/a/../../catalog')] },
      'route /a/../../catalog must not hold dot segments',
    ],
    [
      { contract: { getNotes: {} }, routes: [described('/getNotes')] },
      'route /getNotes takes the name of procedure getNotes',
    ],
  ] as const)('refuses a plugin declaring %j at definition and at mounting', (extra, message) => {
    const plugin = pluginWith('notes', [], extra as Partial<AnyPlugin>);
    expect(() => definePlugin(plugin)).toThrow(`Plugin notes: ${message}`);
    expect(() => mountedRoutes([plugin])).toThrow(message);
  });
});
