import type { RequestContext } from '@checkline/core';
import { notFound, pluginClient } from '@checkline/core';
import { catalogContract } from './contract.ts';

/**
 * For other plugins: asks the catalog, through its contract and inside the caller's transaction,
 * whether every system exists; NOT_FOUND names the first that does not. One call for any number.
 */
export async function assertSystemsExist(
  context: RequestContext,
  systemIds: readonly string[],
): Promise<void> {
  const found = await existingSystems(context, systemIds);
  const missing = systemIds.find((id) => !found.has(id));
  if (missing) throw notFound('System', missing);
}

/**
 * For other plugins: the ones among `systemIds` that exist, whoever may see them (the caller's
 * access is the access middleware's): one call to the catalog for any number.
 */
export async function existingSystems(
  context: RequestContext,
  systemIds: readonly string[],
): Promise<ReadonlySet<string>> {
  const wanted = [...new Set(systemIds)];
  if (wanted.length === 0) return new Set();
  const { systems } = await pluginClient(context, catalogContract).getSystems({
    ids: wanted,
    limit: wanted.length,
  });
  return new Set(systems.map((system) => system.id));
}
