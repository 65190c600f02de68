import { catalogAccess, catalogContract, SYSTEM_RESOURCE } from '@checkline/catalog';
import { assertSystemsExist } from '@checkline/catalog';
import type { RequestContext } from '@checkline/core';
import { notFound, pluginClient } from '@checkline/core';
import { os } from '../implementer.ts';
import type { NotificationState } from '../state.ts';
import { holdsRule } from './recipients.ts';
import type { CreateSubscriptionInput } from './schemas.ts';
import * as subscriptions from './service.ts';

/** The callers of these procedures are users (the contract admits no other kind). */
const userIdOf = (context: RequestContext) => context.principal.id!;

/**
 * A subscription's target must exist and be readable: a system through the catalog rule or a
 * team grant (a team-only one needs the grant; the contract's `attachedTo` refused that already),
 * a group through the catalog rule. One the caller cannot read is NOT_FOUND like a missing one.
 */
async function assertTargetReadable(context: RequestContext, input: CreateSubscriptionInput) {
  const mayReadCatalog = holdsRule(context.principal, catalogAccess.read.id);
  if (input.systemId) {
    await assertSystemsExist(context, [input.systemId]);
    const visible = await context.resources.visible(
      context.db,
      context.principal,
      SYSTEM_RESOURCE,
      [input.systemId],
      'read',
      mayReadCatalog,
    );
    if (!visible.has(input.systemId)) throw notFound('System', input.systemId);
  }
  if (input.groupId) {
    if (!mayReadCatalog) throw notFound('Group', input.groupId);
    await pluginClient(context, 'catalog', catalogContract).getGroup({ id: input.groupId });
  }
}

export function subscriptionsHandlers(_state: NotificationState) {
  return {
    getMySubscriptions: os.getMySubscriptions.handler(({ context, input }) =>
      subscriptions.listSubscriptions(context.db, userIdOf(context), input),
    ),
    createSubscription: os.createSubscription.handler(async ({ context, input }) => {
      await assertTargetReadable(context, input);
      return subscriptions.createSubscription(context.db, userIdOf(context), input);
    }),
    deleteSubscription: os.deleteSubscription.handler(({ context, input }) =>
      subscriptions.deleteSubscription(context.db, userIdOf(context), input.id),
    ),
  };
}
