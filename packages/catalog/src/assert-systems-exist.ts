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
  const wanted = [...new Set(systemIds)];
  if (wanted.length === 0) return;
  const { systems } = await pluginClient(context, 'catalog', catalogContract).getSystems({
    ids: wanted,
    limit: wanted.length,
  });
  const found = new Set(systems.map((system) => system.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw notFound('System', missing);
}
