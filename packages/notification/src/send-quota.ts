import type { Principal, RateLimit } from '@checkline/core';
import { budgetFor, consumeInTransaction } from '@checkline/core';
import type { Database } from '@checkline/db';

/**
 * Notifications (one per recipient: an inbox row, or a message's deliveries to one user) one
 * caller may have stored per hour through notifyUsers, sendExternal and sendTransactional: five
 * full 10 000-user fan-outs, far below what fills a disk.
 */
export const defaultSendQuota: RateLimit = { points: 50_000, durationSeconds: 3_600 };

/**
 * Throws TOO_MANY_REQUESTS (with `retryAfter`) when storing `recipients` more is over budget;
 * `db` is the call's transaction.
 */
export type SendQuota = (principal: Principal, recipients: number, db: Database) => Promise<void>;

const KEY_PREFIX = 'notification-send';

/**
 * Counts what each caller has stored; `false` counts nothing. The platform's own producers (the
 * service principal) are not counted: their volume follows monitoring events, which no caller
 * chooses. A refused call spends nothing. In memory until `share` is called; then counted in the
 * database every process shares, inside the call's own transaction (a send writes many rows
 * anyway; one more statement is not worth a lease, and it rolls back with a failed send).
 */
export function sendQuota(limit: RateLimit | false) {
  const inMemory = budgetFor(limit, KEY_PREFIX);
  let shared = false;
  const assertWithinSendQuota: SendQuota = async (principal, recipients, db) => {
    if (limit === false || principal.kind === 'service' || recipients === 0) return;
    const key = `${principal.kind}:${principal.id ?? ''}`;
    await (shared
      ? consumeInTransaction(db, limit, KEY_PREFIX, key, recipients)
      : inMemory.consume(key, recipients));
  };
  return {
    assertWithinSendQuota,
    share: () => {
      shared = true;
    },
  };
}
