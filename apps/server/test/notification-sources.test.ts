import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyPlugin } from '@checkline/core';
import type { createNotificationPlugin } from '@checkline/notification';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../src/env.ts';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 20 item 4: monitoring events reach notifications through the sources extension point.
 * The notification platform names none of the monitoring plugins (nor the catalog) in its
 * manifest or any import, and every monitoring event subscriptions hear is registered as a source
 * whose read rule and subscription kind the running server knows.
 */
const MONITORING = ['catalog', 'healthcheck', 'incident', 'maintenance'];

/** Every TypeScript file under `folder`, tests included. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

let server: TestServer;
let plugins: readonly AnyPlugin[];

beforeAll(async () => {
  plugins = createPlugins(testEnv);
  server = await createTestServer({ plugins });
});
afterAll(() => server?.close());

describe('notification sources', () => {
  describe('works', () => {
    const notificationFolder = join(repositoryRoot, 'packages', 'notification');

    it.each(MONITORING)('notification does not depend on @checkline/%s', (name) => {
      const manifest = JSON.parse(
        readFileSync(join(notificationFolder, 'package.json'), 'utf8'),
      ) as Record<string, Record<string, string> | undefined>;
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
        expect(Object.keys(manifest[field] ?? {})).not.toContain(`@checkline/${name}`);
      }
      const importing = sourceFiles(join(notificationFolder, 'src')).filter((file) =>
        new RegExp(`from '@checkline/${name}(/[^']*)?'`).test(readFileSync(file, 'utf8')),
      );
      expect(importing).toEqual([]);
    });

    it('registers every monitoring event as a source the server knows the rule and kind of', () => {
      const notification = plugins.find((plugin) => plugin.id === 'notification') as ReturnType<
        typeof createNotificationPlugin
      >;
      const sources = notification.state.sources.list();
      expect(
        sources.map((source) => [source.qualifiedId, source.event.name, source.subscriptionKind]),
      ).toEqual([
        ['maintenance.started', 'maintenance.started', 'maintenance'],
        ['maintenance.ended', 'maintenance.ended', 'maintenance'],
        ['healthcheck.status-changes', 'healthcheck.status_changed', 'health'],
        ['incident.created', 'incident.created', 'incident'],
        ['incident.updated', 'incident.updated', 'incident'],
        ['incident.resolved', 'incident.resolved', 'incident'],
      ]);
      const rules = new Set(plugins.flatMap((plugin) => plugin.accessRules.map((rule) => rule.id)));
      for (const source of sources) {
        // The read rule is the source plugin's own, so its readers are the ones who hear it.
        expect(rules.has(source.readRule), source.qualifiedId).toBe(true);
        expect(source.readRule.startsWith(`${source.ownerPluginId}.`), source.qualifiedId).toBe(
          true,
        );
      }
      expect(new Set(sources.map((source) => source.directory)).size).toBe(1);
    });
  });
});
