import type { RequestContext } from '@checkline/core';
import { runInTransaction } from '@checkline/core';
import { and, eq, gte, isNull, or, gt, isNotNull, sql } from 'drizzle-orm';
import { channelHealth } from '../db/schema.ts';
import { insertNotifications } from '../inbox/service.ts';
import type { NotificationState } from '../state.ts';
import { channelAdministrators } from './channel-admins.ts';
import type { AttemptOutcome } from './claims.ts';
import { enqueueDeliveries } from './enqueue.ts';

/** The notification type of the report that a channel keeps failing. */
export const CHANNEL_FAILING_TYPE = 'notification.channel_failing';

/** A success clears the record; only a channel that had failed is written. */
async function recovered(context: RequestContext, strategyId: string) {
  await context.db
    .update(channelHealth)
    .set({
      consecutiveFailures: 0,
      failingSince: null,
      lastError: null,
      reportedAt: null,
      updatedAt: sql`clock_timestamp()`,
    })
    .where(
      and(
        eq(channelHealth.strategyId, strategyId),
        or(gt(channelHealth.consecutiveFailures, 0), isNotNull(channelHealth.reportedAt)),
      ),
    );
}

/** Counts one more failed attempt; answers whether this caller is the one to report it. */
async function failedOnce(
  context: RequestContext,
  strategyId: string,
  error: string,
  threshold: number,
): Promise<{ failures: number; since: Date } | undefined> {
  await context.db
    .insert(channelHealth)
    .values({
      strategyId,
      consecutiveFailures: 1,
      failingSince: sql`clock_timestamp()`,
      lastError: error,
    })
    .onConflictDoUpdate({
      target: channelHealth.strategyId,
      set: {
        consecutiveFailures: sql`${channelHealth.consecutiveFailures} + 1`,
        failingSince: sql`coalesce(${channelHealth.failingSince}, clock_timestamp())`,
        lastError: error,
        updatedAt: sql`clock_timestamp()`,
      },
    });
  // One statement decides who reports: the row lock lets exactly one process set reported_at.
  const [claimed] = await context.db
    .update(channelHealth)
    .set({ reportedAt: sql`clock_timestamp()` })
    .where(
      and(
        eq(channelHealth.strategyId, strategyId),
        isNull(channelHealth.reportedAt),
        gte(channelHealth.consecutiveFailures, threshold),
      ),
    )
    .returning({
      failures: channelHealth.consecutiveFailures,
      since: channelHealth.failingSince,
    });
  return claimed ? { failures: claimed.failures, since: claimed.since! } : undefined;
}

function report(strategyId: string, failures: number, since: Date, error: string) {
  return {
    type: CHANNEL_FAILING_TYPE,
    importance: 'critical' as const,
    title: `Notification channel ${strategyId} keeps failing`,
    body: [
      `The last **${failures}** attempts to send through \`${strategyId}\` failed, the first at ${since.toISOString()}.`,
      '',
      `Last error: \`${error.replaceAll('`', "'")}\``,
      '',
      'Alerts through it are retried on their schedule; check its settings and the delivery log. You hear again only after it has worked once.',
    ].join('\n'),
    action: {
      label: 'Open the delivery log',
      url: '/admin/deliveries',
    },
  };
}

/**
 * Keeps count of each channel's attempts in a row that failed (a retry or a final failure) and
 * resets it on a success. When the count reaches `channelFailuresBeforeReport`, the
 * administrators are told once, in their inboxes and through every other channel, in the same
 * transaction as the mark that they were told: across processes exactly one report per failing
 * spell. Skipped deliveries say nothing about the channel.
 */
export async function noteChannelAttempt(
  state: NotificationState,
  strategyId: string,
  outcome: AttemptOutcome,
): Promise<void> {
  if (outcome.status === 'skipped') return;
  const service = state.serviceContext();
  await runInTransaction(service, async (inner) => {
    const context: RequestContext = { ...service, ...inner };
    if (outcome.status === 'sent') return recovered(context, strategyId);
    const threshold = state.deliverySettings.channelFailuresBeforeReport;
    const claimed = await failedOnce(context, strategyId, outcome.error, threshold);
    if (!claimed) return;
    const admins = await channelAdministrators(context);
    if (admins.length === 0) return;
    const message = report(strategyId, claimed.failures, claimed.since, outcome.error);
    await insertNotifications(context.db, admins, message);
    await enqueueDeliveries(state, context, {
      kind: 'external',
      userIds: admins,
      exceptStrategyId: strategyId,
      notification: message,
    });
  });
}
