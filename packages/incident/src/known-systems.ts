import { catalogContract } from '@checkline/catalog/contract';
import type { RequestContext } from '@checkline/core';
import { pluginClient } from '@checkline/core';

/**
 * Asks the catalog, through its contract, for each system; its NOT_FOUND (`System <id> not
 * found`) reaches the caller unchanged. Runs inside the caller's transaction.
 */
export async function assertSystemsExist(
  context: RequestContext,
  systemIds: readonly string[],
): Promise<void> {
  const catalog = pluginClient(context, 'catalog', catalogContract);
  for (const id of new Set(systemIds)) await catalog.getSystem({ id });
}
