import type { AlertFacts } from '@checkline/notification-node';
import type { RequestContext } from '@checkline/core';
import type { Principal } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { and, eq, sql } from 'drizzle-orm';
import type { DeliveryStatus, MessageKind, RecipientKind } from '../db/schema.ts';
import type { NotificationContent } from '../message-schemas.ts';
import { deliveries, messages } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import { findStrategy } from '../strategies/service.ts';
import { loadStrategySettings, loadUserChannels } from '../strategies/settings-store.ts';
import { eligibility } from './eligibility.ts';
import type { Delivery } from './schemas.ts';
import { deliveriesOfMessage } from './service.ts';
import { fetchRecipients } from './recipients.ts';

export interface EnqueueRequest {
  kind: MessageKind;
  /** The recipients' ids: users', or applications' when `recipientKind` says so. */
  userIds: readonly string[];
  /** Default `user`. Applications are reached only through strategies that reach applications. */
  recipientKind?: RecipientKind | undefined;
  /** Only this strategy (qualified id); without it, every strategy each user may use and has on. */
  strategyId?: string | undefined;
  notification: NotificationContent;
  /** A subscription alert's structured facts, handed to strategies beside the text. */
  facts?: AlertFacts | undefined;
  /** A repeated call of the same principal with the same key creates nothing and answers the first's deliveries. */
  idempotencyKey?: string | undefined;
  /** Counts the recipients against the caller's hourly send quota (calls from outside). */
  quota?: boolean;
  /** Without `strategyId`: every strategy but this one (telling admins that one is failing). */
  exceptStrategyId?: string | undefined;
  /** Every delivery is written `skipped` with this reason (alerts suppressed by maintenance). */
  suppressedReason?: string | undefined;
  /**
   * The systems the message is about: each delivery waits for the earlier pending ones to the
   * same user and strategy about any of them (messages of a system are sent in order).
   */
  systemIds?: readonly string[] | undefined;
}

export interface Enqueued {
  notificationId: string;
  deliveries: Delivery[];
  /** Ids among the request's that no user has: no delivery is made for them. */
  unknownUserIds: string[];
}

interface PlannedDelivery {
  userId: string;
  strategyId: string;
  status: DeliveryStatus;
  skipReason: string;
}

/** Who asked: scopes idempotency keys, so one caller can never replay another's call. */
const callerOf = (principal: Principal) => `${principal.kind}:${principal.id ?? ''}`;

/**
 * Queues one notification to users through their external channels: one `messages` row and one
 * `deliveries` row per (user, strategy) that should hear of it, written in the caller's
 * transaction (`context.db`), so a call or batch that fails sends nothing. Channel choice is
 * Who is reached (see {@link eligibility}): ids no user has get no delivery at all and are answered in
 * `unknownUserIds`; with `strategyId`, every other refusal (`Missing access: <rule>`, disabled by
 * an administrator or by the user, not configured, no contact) is a `skipped` delivery with its
 * reason; without it, only users lacking a contact get
 * skipped rows, and channels a user may not use or has off are left out. Transactional and test
 * sends ignore the user's own switch. The number of statements does not grow with the users
 * (one per strategy for user settings, besides a fixed few). Workers are woken once it commits.
 */
export async function enqueueDeliveries(
  state: NotificationState,
  context: RequestContext,
  request: EnqueueRequest,
): Promise<Enqueued> {
  const { db } = context;
  const caller = callerOf(context.principal);
  const key = request.idempotencyKey;
  const recipientKind = request.recipientKind ?? 'user';
  const recipients = await fetchRecipients(context, recipientKind, request.userIds);
  const userIds = [...recipients.keys()].filter((id) => recipients.get(id)!.profile);
  const unknownUserIds = [...recipients.keys()].filter((id) => !recipients.get(id)!.profile);
  const answer = async (notificationId: string): Promise<Enqueued> => ({
    notificationId,
    deliveries: await deliveriesOfMessage(db, notificationId),
    unknownUserIds,
  });
  if (key !== undefined) {
    const earlier = await keyedMessage(db, caller, key);
    if (earlier) return answer(earlier);
  }
  const named = request.strategyId !== undefined;
  const strategies = chosenStrategies(state, request.strategyId).filter(
    (strategy) =>
      strategy.qualifiedId !== request.exceptStrategyId &&
      (named || recipientKind === 'user' || strategy.reachesApplications === true),
  );
  const transactional = request.kind !== 'external';

  const settings = await loadStrategySettings(
    state,
    db,
    strategies.map((strategy) => strategy.qualifiedId),
  );
  const planned: PlannedDelivery[] = [];
  for (const strategy of strategies) {
    const strategySettings = settings.get(strategy.qualifiedId)!;
    // Unnamed channels an administrator has not turned on reach nobody: no need to read users.
    if (!named && !(strategySettings.enabled && strategySettings.configured)) continue;
    const channels = await loadUserChannels(state, db, strategy.qualifiedId, userIds);
    for (const userId of userIds) {
      const decision = await eligibility({
        strategy,
        settings: strategySettings,
        recipient: recipients.get(userId)!,
        channel: channels.get(userId)!,
        transactional,
        named,
      });
      if ('omit' in decision) continue;
      planned.push({
        userId,
        strategyId: strategy.qualifiedId,
        status: decision.send ? 'pending' : 'skipped',
        skipReason: decision.send ? '' : decision.skip,
      });
    }
  }
  if (request.suppressedReason !== undefined) {
    for (const row of planned) {
      row.status = 'skipped';
      row.skipReason = request.suppressedReason;
    }
  }

  const { notification } = request;
  const [message] = await db
    .insert(messages)
    .values({
      kind: request.kind,
      type: notification.type,
      title: notification.title,
      body: notification.body ?? '',
      importance: notification.importance,
      actionLabel: notification.action?.label ?? null,
      actionUrl: notification.action?.url ?? null,
      caller,
      facts: request.facts ?? null,
      idempotencyKey: key ?? null,
    })
    .onConflictDoNothing({
      target: [messages.caller, messages.idempotencyKey],
      where: sql`${messages.idempotencyKey} is not null`,
    })
    .returning({ id: messages.id });
  if (!message) {
    // A concurrent call with the same key committed first: answer its deliveries.
    return answer((await keyedMessage(db, caller, key!))!);
  }
  await insertDeliveries(db, message.id, planned, {
    recipientKind,
    transactional,
    maxAttempts: state.deliverySettings.maxAttempts,
    systemIds: request.systemIds ?? [],
  });
  // Counted last, so the quota's row is locked only until the commit that follows; a refusal
  // rolls back what was stored.
  if (request.quota) await state.assertWithinSendQuota(context.principal, userIds.length, db);
  if (planned.some((row) => row.status === 'pending')) {
    context.afterCommit(() => state.deliveryWorker?.wake());
  }
  return answer(message.id);
}

function chosenStrategies(state: NotificationState, strategyId: string | undefined) {
  if (strategyId === undefined) return state.strategies.list();
  return [findStrategy(state, strategyId)];
}

async function keyedMessage(db: Database, caller: string, key: string) {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.caller, caller), eq(messages.idempotencyKey, key)));
  return row?.id;
}

/** Every planned row in one statement, whatever their number (arrays, not one parameter per value). */
async function insertDeliveries(
  db: Database,
  messageId: string,
  rows: readonly PlannedDelivery[],
  options: {
    recipientKind: RecipientKind;
    transactional: boolean;
    maxAttempts: number;
    systemIds: readonly string[];
  },
) {
  if (rows.length === 0) return;
  const column = <K extends keyof PlannedDelivery>(name: K) =>
    sql.param(rows.map((row) => row[name]));
  // One instant per call, a microsecond apart per row: the log keeps the order of the plan.
  await db.execute(sql`
    insert into ${deliveries} (message_id, user_id, recipient_kind, strategy_id, system_ids, status,
      skip_reason, finished_at, transactional, max_attempts, created_at, updated_at)
    select ${messageId}::uuid, planned.user_id, ${options.recipientKind}, planned.strategy_id,
      ${sql.param([...options.systemIds])}::uuid[], planned.status,
      nullif(planned.skip_reason, ''),
      case when planned.status = 'skipped' then call.at end,
      ${options.transactional}, ${options.maxAttempts},
      call.at + (planned.position - 1) * interval '1 microsecond', call.at
    from (select clock_timestamp() as at) as call,
      unnest(${column('userId')}::uuid[], ${column('strategyId')}::text[],
        ${column('status')}::text[], ${column('skipReason')}::text[])
        with ordinality as planned(user_id, strategy_id, status, skip_reason, position)
    order by planned.position`);
}
