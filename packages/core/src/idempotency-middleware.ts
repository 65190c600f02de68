import { idempotencyKeys, type Database } from '@checkline/db';
import { os } from '@orpc/server';
import { and, eq, sql } from 'drizzle-orm';
import type { RequestContext } from './context.ts';
import type { CursorSeal } from './cursor-seal.ts';
import { appError, badRequest, conflict } from './errors.ts';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_TTL_MS } from './idempotency-key.ts';
import type { ProcedureMeta } from './meta.ts';
import { decodeOutput, encodeOutput, inputHash, type StoredOutput } from './stored-output.ts';

/** A claim of a mutation outside a transaction that never finished (its process died) lapses. */
const ABANDONED_CLAIM = sql`interval '15 minutes'`;
/** Expired rows each claim deletes, so the table never outgrows a day of keys. */
const PURGE_BATCH = 100;

interface Scope {
  principal: string;
  procedure: string;
  key: string;
}

const whereScope = (scope: Scope) =>
  and(
    eq(idempotencyKeys.principal, scope.principal),
    eq(idempotencyKeys.procedure, scope.procedure),
    eq(idempotencyKeys.key, scope.key),
  );

async function purgeExpired(db: Database) {
  await db.execute(sql`
    delete from ${idempotencyKeys} where ctid in (
      select ctid from ${idempotencyKeys} where ${idempotencyKeys.expiresAt} < now()
      limit ${PURGE_BATCH} for update skip locked)`);
}

/**
 * Takes the key for this call: true when this call runs the mutation. A row of another call
 * that is still uncommitted makes this wait for it (PostgreSQL's unique check), so two retries
 * racing never both apply.
 */
async function claim(db: Database, scope: Scope, hash: string): Promise<boolean> {
  await purgeExpired(db);
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ ...scope, inputHash: hash, expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS) })
    .onConflictDoUpdate({
      target: [idempotencyKeys.principal, idempotencyKeys.procedure, idempotencyKeys.key],
      set: {
        inputHash: hash,
        output: null,
        createdAt: sql`now()`,
        expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
      },
      setWhere: sql`${idempotencyKeys.expiresAt} < now() or (${idempotencyKeys.output} is null and ${idempotencyKeys.createdAt} < now() - ${ABANDONED_CLAIM})`,
    })
    .returning({ key: idempotencyKeys.key });
  return claimed.length > 0;
}

/**
 * Answers may hold secrets (a new API key, a heartbeat token): stored sealed with AES-256-GCM
 * under the server's key (the cursor seal's), bound to the caller and the procedure.
 */
const sealFor = (scope: Scope) => ({
  list: `idempotent answer of ${scope.procedure}`,
  caller: scope.principal,
});

function sealOutput(cursors: CursorSeal, scope: Scope, output: unknown): string {
  return cursors.seal(sealFor(scope), [JSON.stringify(encodeOutput(output))]);
}

function openOutput(cursors: CursorSeal, scope: Scope, sealed: string): unknown {
  const [text] = cursors.open(sealFor(scope), sealed) as [string];
  return decodeOutput(JSON.parse(text) as StoredOutput);
}

/** The first call's answer for a retry: its output, or why there is none to give. */
async function firstAnswer(
  { db, cursors }: RequestContext,
  scope: Scope,
  hash: string,
): Promise<unknown> {
  const [row] = await db
    .select({ inputHash: idempotencyKeys.inputHash, output: idempotencyKeys.output })
    .from(idempotencyKeys)
    .where(whereScope(scope));
  if (!row)
    throw conflict(`The first request with this ${IDEMPOTENCY_HEADER} has just ended; retry`);
  if (row.inputHash !== hash) {
    throw appError(
      'UNPROCESSABLE_CONTENT',
      `${IDEMPOTENCY_HEADER} ${scope.key} was first sent to ${scope.procedure} with another input; a new request needs a new key`,
    );
  }
  if (row.output === null) {
    throw conflict(
      `The first request with this ${IDEMPOTENCY_HEADER} is still running; retry once it has answered`,
    );
  }
  return openOutput(cursors, scope, row.output);
}

const store = ({ db, cursors }: RequestContext, scope: Scope, output: unknown) =>
  db
    .update(idempotencyKeys)
    .set({ output: sealOutput(cursors, scope, output) })
    .where(whereScope(scope));

/**
 * A mutation sent with an `Idempotency-Key` runs once per caller, procedure and key for 24 h: a
 * retry with the same input answers the first result (and marks the request replayed), another
 * input is UNPROCESSABLE_CONTENT. A transactional mutation writes the key and its result in its
 * own transaction, so a change that committed keeps its answer even when the reply was lost, and
 * a failed one leaves no key behind. A mutation keeping its own transactions claims the key first
 * (a retry meanwhile is CONFLICT), stores the result after, and frees the key when it fails.
 */
export const idempotencyMiddleware = os
  .$context<RequestContext>()
  .$meta<ProcedureMeta>({ kind: 'query', principals: [], access: [] })
  .middleware(async function runOncePerKey({ context, procedure, next }, input: unknown) {
    const idempotency = context.idempotency;
    if (procedure['~orpc'].meta.kind !== 'mutation' || !idempotency) return next();
    const { principal } = context;
    if (principal.id === null) {
      throw badRequest(
        `${IDEMPOTENCY_HEADER} needs a signed-in caller: send the request without it`,
      );
    }
    const scope: Scope = {
      principal: `${principal.kind}:${principal.id}`,
      procedure: procedure['~orpc'].route.operationId ?? 'unknown',
      key: idempotency.key,
    };
    const hash = inputHash(input);
    const { db } = context;
    if (!(await claim(db, scope, hash))) {
      const output = await firstAnswer(context, scope, hash);
      idempotency.replayed = true;
      return { output, context: {} };
    }
    if (context.inTransaction) {
      const result = await next();
      await store(context, scope, result.output);
      return result;
    }
    try {
      const result = await next();
      await store(context, scope, result.output);
      return result;
    } catch (error) {
      await db
        .delete(idempotencyKeys)
        .where(whereScope(scope))
        .catch(() => {});
      throw error;
    }
  });
