import type { RequestContext } from '@checkline/core';
import type { PageScope } from '@checkline/core';
import { keysetPages } from '@checkline/core';
import type { Principal } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { keysetOrder } from '@checkline/db';
import { and, eq, lt, sql } from 'drizzle-orm';
import { auditLog } from './db/schema.ts';
import type { AuditPage, GetAuditLogInput } from './schemas.ts';

export type AuditAction =
  | 'application.created'
  | 'application.updated'
  | 'application.roles_changed'
  | 'application.secret_regenerated'
  | 'application.deleted'
  | 'user.created'
  | 'user.updated'
  | 'user.password_changed'
  | 'user.roles_changed'
  | 'user.deleted'
  | 'role.created'
  | 'role.updated'
  | 'role.deleted'
  | 'team.created'
  | 'team.updated'
  | 'team.deleted'
  | 'team.member_added'
  | 'team.member_removed'
  | 'resource.access_changed'
  | 'registration.changed';

export interface AuditTarget {
  type: string;
  id?: string | null;
}

/**
 * Records who did what, and when, in the caller's transaction: the entry exists exactly when the
 * change does. `details` never holds a secret.
 */
export async function recordAudit(
  db: Database,
  actor: Principal,
  action: AuditAction,
  target: AuditTarget,
  details: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(auditLog).values({
    // The wall clock, not the transaction's start, so entries of one transaction keep their order.
    at: sql`clock_timestamp()`,
    actorKind: actor.kind,
    actorId: actor.id,
    action,
    targetType: target.type,
    targetId: target.id ?? null,
    details,
  });
}

/** {@link recordAudit} for the caller of a procedure, in the procedure's transaction. */
export const audit = (
  context: RequestContext,
  action: AuditAction,
  target: AuditTarget,
  details?: Record<string, unknown>,
) => recordAudit(context.db, context.principal, action, target, details);

// Entries of one transaction share `at`; the id breaks the tie. The index on `at` bounds a page.
const auditPages = keysetPages('auth.audit', keysetOrder([auditLog.at, auditLog.id], 'desc'));

/** A page of entries, newest first, optionally from `before` back, of one action, by one actor. */
export async function listAudit(
  db: Database,
  input: GetAuditLogInput,
  scope: PageScope,
): Promise<AuditPage> {
  const where = and(
    input.before ? lt(auditLog.at, new Date(input.before)) : undefined,
    input.action ? eq(auditLog.action, input.action) : undefined,
    input.actorId ? eq(auditLog.actorId, input.actorId) : undefined,
  );
  const page = await auditPages.read(db, auditLog, { ...input, where }, scope, (rows) =>
    rows.map(toAuditEntry),
  );
  return { entries: page.items, nextCursor: page.nextCursor };
}

function toAuditEntry(row: typeof auditLog.$inferSelect) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actorKind, id: row.actorId },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
  };
}
