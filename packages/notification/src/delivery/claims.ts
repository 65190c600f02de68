import type { Database } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AttemptRecord, RecipientKind } from '../db/schema.ts';
import { deliveries } from '../db/schema.ts';

/** The error of an attempt whose worker stopped before recording it (its lease lapsed). */
export const LEASE_LAPSED =
  'lease lapsed: the worker sending it stopped before recording the outcome';

/** One pending delivery this process holds until `claimedUntil`, under `claimToken`. */
export interface ClaimedDelivery {
  id: string;
  messageId: string;
  /** The recipient's id: a user's, or an application's. */
  userId: string;
  recipientKind: RecipientKind;
  strategyId: string;
  /** The systems its message is about: later deliveries about them wait for this one. */
  systemIds: string[];
  transactional: boolean;
  attempts: number;
  maxAttempts: number;
  claimToken: string;
}

/**
 * The order of a system's messages: a delivery waits while an earlier one (created before it) to
 * the same user through the same strategy about any of its systems is still pending, whether
 * due, claimed and in flight, or waiting for a retry. Deliveries about no system are not held.
 */
const noEarlierPendingAboutItsSystems = sql`not exists (
  select 1 from ${deliveries} as earlier
  where earlier.status = 'pending'
    and earlier.user_id = ${deliveries.userId}
    and earlier.strategy_id = ${deliveries.strategyId}
    and earlier.created_at <= ${deliveries.createdAt}
    and (earlier.created_at, earlier.id) < (${deliveries.createdAt}, ${deliveries.id})
    and earlier.system_ids && ${deliveries.systemIds})`;

/**
 * Claims due pending deliveries: those whose next attempt has come, that no live claim holds (a
 * lapsed lease means its worker died; the row is taken over) and that no earlier pending one
 * about their systems holds back (see {@link noEarlierPendingAboutItsSystems}). Rows another worker is claiming
 * right now are skipped, never waited for. Each claimed row gets a fresh token, so only this
 * claim can record the outcome. Taking over a lapsed claim counts the dead worker's attempt (it
 * may have reached the provider) with a `retry` entry in the log, so a send that kills its
 * process cannot loop for ever. Call inside a short transaction; send after it commits.
 */
export async function claimDueDeliveries(
  tx: Database,
  options: { now: Date; limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const { now, limit, leaseMs } = options;
  const due = await tx
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.status, 'pending'),
        lte(deliveries.nextAttemptAt, now),
        or(isNull(deliveries.claimedUntil), lte(deliveries.claimedUntil, now)),
        noEarlierPendingAboutItsSystems,
      ),
    )
    .orderBy(asc(deliveries.nextAttemptAt), asc(deliveries.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  // Every SET expression reads the row as it was: a token still there means a lapsed claim.
  const lapsed = sql`${deliveries.claimToken} is not null`;
  const lapsedAttempt: AttemptRecord = {
    at: now.toISOString(),
    outcome: 'retry',
    error: LEASE_LAPSED,
  };
  return tx
    .update(deliveries)
    .set({
      claimedUntil: new Date(now.getTime() + leaseMs),
      claimToken: sql`gen_random_uuid()`,
      attempts: sql`${deliveries.attempts} + case when ${lapsed} then 1 else 0 end`,
      lastError: sql`case when ${lapsed} then ${LEASE_LAPSED} else ${deliveries.lastError} end`,
      attemptLog: sql`case when ${lapsed}
        then ${deliveries.attemptLog} || ${JSON.stringify([lapsedAttempt])}::jsonb
        else ${deliveries.attemptLog} end`,
      updatedAt: now,
    })
    .where(
      inArray(
        deliveries.id,
        due.map((row) => row.id),
      ),
    )
    .returning({
      id: deliveries.id,
      messageId: deliveries.messageId,
      userId: deliveries.userId,
      recipientKind: deliveries.recipientKind,
      strategyId: deliveries.strategyId,
      systemIds: deliveries.systemIds,
      transactional: deliveries.transactional,
      attempts: deliveries.attempts,
      maxAttempts: deliveries.maxAttempts,
      claimToken: sql<string>`${deliveries.claimToken}`,
    });
}

/** What one claim ends in: final, or pending again for a retry at `retryAt`. */
export type AttemptOutcome =
  | { status: 'sent'; attempt: AttemptRecord }
  /** `sendAttempted: false`: failed without calling `send` (no attempts left after a takeover). */
  | { status: 'failed'; error: string; attempt: AttemptRecord; sendAttempted?: false }
  | { status: 'skipped'; reason: string; attempt: AttemptRecord }
  | { status: 'pending'; error: string; retryAt: Date; attempt: AttemptRecord };

/** One claim's outcome, to record. */
export interface ClaimOutcome {
  claim: Pick<ClaimedDelivery, 'id' | 'claimToken'>;
  outcome: AttemptOutcome;
}

/**
 * Records the outcomes of claims in one statement, appending each attempt to its log, only
 * while each claim still holds its row (same token, still pending): a worker whose lease lapsed
 * and was taken over records nothing. Answers the ids recorded.
 */
export async function recordOutcomes(
  db: Database,
  outcomes: readonly ClaimOutcome[],
  now: Date,
): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const rows = outcomes.map(({ claim, outcome }) => ({
    id: claim.id,
    claim_token: claim.claimToken,
    status: outcome.status,
    tried:
      outcome.status === 'skipped' ||
      ('sendAttempted' in outcome && outcome.sendAttempted === false)
        ? 0
        : 1,
    error: 'error' in outcome ? outcome.error : null,
    skip_reason: outcome.status === 'skipped' ? outcome.reason : null,
    retry_at: outcome.status === 'pending' ? outcome.retryAt.toISOString() : null,
    attempt: outcome.attempt,
  }));
  const at = sql`${now.toISOString()}::timestamptz`;
  const recorded = await queryRows<{ id: string }>(
    db,
    sql`update ${deliveries} as d set
      status = o.status,
      attempts = d.attempts + o.tried,
      last_error = coalesce(o.error, d.last_error),
      skip_reason = coalesce(o.skip_reason, d.skip_reason),
      next_attempt_at = coalesce(o.retry_at, d.next_attempt_at),
      finished_at = case when o.status = 'pending' then null else ${at} end,
      claimed_until = null,
      claim_token = null,
      attempt_log = d.attempt_log || jsonb_build_array(o.attempt),
      updated_at = ${at}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as o(id uuid, claim_token uuid,
      status text, tried int, error text, skip_reason text, retry_at timestamptz, attempt jsonb)
    where d.id = o.id and d.claim_token = o.claim_token and d.status = 'pending'
    returning d.id`,
  );
  return new Set(recorded.map((row) => row.id));
}

/** Gives unfinished claims back (shutdown before sending): any worker may take them at once. */
export async function releaseClaims(
  db: Database,
  claims: readonly Pick<ClaimedDelivery, 'id' | 'claimToken'>[],
): Promise<void> {
  for (const claim of claims) {
    await db
      .update(deliveries)
      .set({ claimedUntil: null, claimToken: null })
      .where(and(eq(deliveries.id, claim.id), eq(deliveries.claimToken, claim.claimToken)));
  }
}

/** How many deliveries are still pending (due or waiting for a retry). */
export async function countPending(db: Database): Promise<number> {
  return db.$count(deliveries, eq(deliveries.status, 'pending'));
}
