import type { Database } from '@checkline/db';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AttemptRecord } from '../db/schema.ts';
import { deliveries } from '../db/schema.ts';

/** One pending delivery this process holds until `claimedUntil`, under `claimToken`. */
export interface ClaimedDelivery {
  id: string;
  messageId: string;
  userId: string;
  strategyId: string;
  transactional: boolean;
  attempts: number;
  maxAttempts: number;
  claimToken: string;
}

/**
 * Claims due pending deliveries: those whose next attempt has come and that no live claim holds
 * (a lapsed lease means its worker died; the row is taken over). Rows another worker is claiming
 * right now are skipped, never waited for. Each claimed row gets a fresh token, so only this
 * claim can record the outcome. Call inside a short transaction; send after it commits.
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
      ),
    )
    .orderBy(asc(deliveries.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  if (due.length === 0) return [];
  return tx
    .update(deliveries)
    .set({
      claimedUntil: new Date(now.getTime() + leaseMs),
      claimToken: sql`gen_random_uuid()`,
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
      strategyId: deliveries.strategyId,
      transactional: deliveries.transactional,
      attempts: deliveries.attempts,
      maxAttempts: deliveries.maxAttempts,
      claimToken: sql<string>`${deliveries.claimToken}`,
    });
}

/** What one claim ends in: final, or pending again for a retry at `retryAt`. */
export type AttemptOutcome =
  | { status: 'sent'; attempt: AttemptRecord }
  | { status: 'failed'; error: string; attempt: AttemptRecord }
  | { status: 'skipped'; reason: string; attempt: AttemptRecord }
  | { status: 'pending'; error: string; retryAt: Date; attempt: AttemptRecord };

/**
 * Records the outcome of a claim, appending its attempt to the log, only while the claim still
 * holds the row (same token, still pending): a worker whose lease lapsed and was taken over
 * records nothing. True when recorded.
 */
export async function recordOutcome(
  db: Database,
  claim: Pick<ClaimedDelivery, 'id' | 'claimToken'>,
  outcome: AttemptOutcome,
  now: Date,
): Promise<boolean> {
  const tried = outcome.status === 'skipped' ? 0 : 1;
  const final = outcome.status !== 'pending';
  const rows = await db
    .update(deliveries)
    .set({
      status: outcome.status,
      attempts: sql`${deliveries.attempts} + ${tried}`,
      ...('error' in outcome && { lastError: outcome.error }),
      ...(outcome.status === 'skipped' && { skipReason: outcome.reason }),
      ...(outcome.status === 'pending' && { nextAttemptAt: outcome.retryAt }),
      finishedAt: final ? now : null,
      claimedUntil: null,
      claimToken: null,
      attemptLog: sql`${deliveries.attemptLog} || ${JSON.stringify([outcome.attempt])}::jsonb`,
      updatedAt: now,
    })
    .where(
      and(
        eq(deliveries.id, claim.id),
        eq(deliveries.claimToken, claim.claimToken),
        eq(deliveries.status, 'pending'),
      ),
    )
    .returning({ id: deliveries.id });
  return rows.length > 0;
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
