import type { AnyContractRouter, ContractRouterClient } from '@orpc/contract';
import { createRouterClient } from '@orpc/server';
import type { Database } from '@checkline/db';
import type { AccessRule } from './access-rules.ts';
import { CursorSeal } from './cursor-seal.ts';
import type { PageScope } from './keyset-pages.ts';
import { bootPlugins } from './lifecycle.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';
import type { AnyPlugin } from './plugin.ts';
import type { Principal, PrincipalKind } from './principal.ts';
import type { ResourceAccess } from './resource-access.ts';
import { createRuntime } from './runtime.ts';

/** A principal for tests: an application holding `rules` unless told otherwise. */
export function testPrincipal(
  rules: readonly (AccessRule | string)[] = [],
  options: { kind?: PrincipalKind; id?: string; teamIds?: string[]; isAdmin?: boolean } = {},
): Principal {
  return {
    kind: options.kind ?? 'application',
    id: options.id ?? '00000000-0000-4000-8000-000000000001',
    accessRules: rules.map((rule) => (typeof rule === 'string' ? rule : rule.id)),
    teamIds: options.teamIds ?? [],
    isAdmin: options.isAdmin ?? false,
  };
}

/**
 * `createPluginHarness` with the plugins brought up through register, init and ready as the
 * server does (background work starts); call `stop()` at the end.
 */
export async function startPluginHarness(
  plugins: readonly AnyPlugin[],
  db: Database,
  options: {
    resources?: ResourceAccess;
    logger?: Logger;
    /** Dependencies of `plugins` the test leaves out on purpose; any other missing one fails. */
    absentDependencies?: readonly string[];
  } = {},
) {
  const harness = createPluginHarness(plugins, db, options.resources);
  const logger = options.logger ?? silentLogger;
  const booted = await bootPlugins({
    plugins,
    runtime: harness.runtime,
    db,
    logger,
    absentDependencies: options.absentDependencies,
  });
  return { ...harness, ...booted };
}

/**
 * Plugins mounted as the server mounts them (guarded router, events, directory) without HTTP
 * and without their start-up phases:
 * `harness.client('catalog', catalogContract, principal).getSystems({})`.
 */
export function createPluginHarness(
  plugins: readonly AnyPlugin[],
  db: Database,
  resources?: ResourceAccess,
) {
  const runtime = createRuntime(plugins, db, silentLogger, resources);
  return {
    runtime,
    client<T extends AnyContractRouter>(
      pluginId: string,
      _contract: T,
      principal: Principal,
    ): ContractRouterClient<T> {
      const router = runtime.router[pluginId];
      if (!router) throw new Error(`Plugin ${pluginId} is not in the harness`);
      return createRouterClient(router, { context: runtime.contextFor(principal) }) as never;
    },
  };
}

/** A paging scope for service tests: cursors sealed under a process-long key, nothing filtered. */
export function testPageScope(caller = 'application:test'): PageScope {
  return { cursors: testCursors, caller };
}

const testCursors = CursorSeal.ephemeral();

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * `text` (base64url of a length that leaves bits unused, like a 43-character MAC) with its last
 * character spelled differently but decoding to the same bytes: a verifier that compares decoded
 * bytes accepts it, one that compares text refuses it.
 */
export function otherSpellingOfSameBytes(text: string): string {
  const last = BASE64URL.indexOf(text.at(-1) ?? '');
  if (last < 0) throw new Error('not base64url');
  return `${text.slice(0, -1)}${BASE64URL[last ^ 1]}`;
}
