import {
  admitCaller,
  assertSafeInput,
  authorize,
  badRequest,
  runInTransaction,
} from '@checkline/core';
import type { RequestContext } from '@checkline/core';
import type { AnyProcedure, AnyRouter } from '@orpc/server';
import { getEventIteratorSchemaDetails } from '@orpc/contract';
import { call, ValidationError, ORPCError } from '@orpc/server';
import type { Database } from '@checkline/db';
import { metaOf, proceduresOf } from './plugin-router.ts';
import { repeatedTopLevelKey } from './repeated-key.ts';
import { unknownProcedure } from './unknown-names.ts';

/** At most this many keys in one keyed request. */
export const MAX_BATCH_KEYS = 20;

export class KeyedCallError extends Error {
  constructor(
    readonly error: unknown,
    readonly procedure?: string,
  ) {
    super('keyed call failed');
  }
}

interface KeyedCall {
  key: string;
  procedure: AnyProcedure;
  input: unknown;
}

function parseBody(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new KeyedCallError(badRequest('The body must be a JSON object'));
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new KeyedCallError(badRequest('The body must be a JSON object of procedure names'));
  }
  const keys = Object.keys(body);
  if (keys.length === 0) {
    throw new KeyedCallError(badRequest('The body names no procedure'));
  }
  if (keys.length > MAX_BATCH_KEYS) {
    throw new KeyedCallError(
      badRequest(`A batch holds at most ${MAX_BATCH_KEYS} procedures; this one has ${keys.length}`),
    );
  }
  const repeated = repeatedTopLevelKey(text);
  if (repeated !== undefined) {
    throw new KeyedCallError(
      badRequest(`The key ${repeated} appears more than once; each call needs its own key`),
      repeated,
    );
  }
  return body as Record<string, unknown>;
}

/** The input as the procedure will see it (defaults applied), or BAD_REQUEST with its issues. */
async function validateInput(call: KeyedCall): Promise<unknown> {
  const schema = call.procedure['~orpc'].inputSchema;
  if (!schema) return call.input;
  const result = await schema['~standard'].validate(call.input);
  if (result.issues) {
    throw new ORPCError('BAD_REQUEST', {
      message: 'Input validation failed',
      cause: new ValidationError({ message: 'Input validation failed', issues: result.issues }),
    });
  }
  return result.value;
}

/**
 * A procedure answering a stream of events cannot be one value of a keyed JSON answer: BAD_REQUEST
 * naming where to call it instead. Any procedure whose output is an event iterator gets it.
 */
function refuseStream(pluginId: string, key: string, procedure: AnyProcedure) {
  const { outputSchema, route } = procedure['~orpc'];
  if (!getEventIteratorSchemaDetails(outputSchema)) return;
  const rest = `${route.method ?? 'GET'} ${route.path ?? `/rest/${pluginId}/${key}`}`;
  throw new KeyedCallError(
    badRequest(
      `${key} answers a stream of server-sent events, which a keyed call cannot hold: call ${rest} (server-sent events) or /api/${pluginId}/${key} with the oRPC protocol`,
    ),
    key,
  );
}

/** The keyed surface for one plugin: `{ procName: input, ... }` in, `{ procName: output }` out. */
export function createKeyedDispatcher(pluginId: string, pluginRouter: AnyRouter, db: Database) {
  const procedures = proceduresOf(pluginRouter);
  const names = [...procedures.keys()];

  function resolve(body: Record<string, unknown>): KeyedCall[] {
    return Object.entries(body).map(([key, input]) => {
      const procedure = procedures.get(key);
      if (!procedure) throw new KeyedCallError(unknownProcedure(pluginId, key, names), key);
      refuseStream(pluginId, key, procedure);
      return { key, procedure, input: input ?? {} };
    });
  }

  const invoke = (context: RequestContext, item: KeyedCall) =>
    call(item.procedure, item.input, { context, path: [item.key] });

  async function run(context: RequestContext, calls: KeyedCall[]) {
    const output: Record<string, unknown> = {};
    for (const item of calls) {
      try {
        output[item.key] = await invoke(context, item);
      } catch (error) {
        throw new KeyedCallError(error, item.key);
      }
    }
    return output;
  }

  /**
   * Reads side by side: the database pipelines their statements. The answer keeps body order,
   * and the first failing key in body order is the one reported.
   */
  async function runConcurrently(context: RequestContext, calls: KeyedCall[]) {
    const settled = await Promise.allSettled(calls.map((item) => invoke(context, item)));
    const output: Record<string, unknown> = {};
    settled.forEach((outcome, index) => {
      const { key } = calls[index]!;
      if (outcome.status === 'rejected') throw new KeyedCallError(outcome.reason, key);
      output[key] = outcome.value;
    });
    return output;
  }

  /**
   * Every key is resolved, authorised and validated before any runs (so a batch fails before it writes), in the order
   * every call takes: admission, input validation, then team access (on the root database: no
   * transaction is open yet).
   */
  async function preflight(context: RequestContext, calls: KeyedCall[]) {
    for (const item of calls) {
      const meta = metaOf(item.procedure);
      try {
        // The input rules run again in front of the procedure; here they come before anything
        // reads the raw input.
        assertSafeInput(item.input);
        admitCaller(meta, context.principal);
        await authorize(meta, context, await validateInput(item));
      } catch (error) {
        throw new KeyedCallError(error, item.key);
      }
    }
  }

  /** `named` hears the procedures called, once the body is read (for `GET /metrics`). */
  return async function dispatch(
    bodyText: string,
    context: RequestContext,
    named?: (keys: readonly string[]) => void,
  ) {
    const calls = resolve(parseBody(bodyText));
    // Only names that exist: a caller inventing keys cannot grow the metric series.
    named?.(calls.map((item) => item.key));
    if (calls.length === 1) return run(context, calls);
    // Reads alone need neither the pre-flight nor a transaction: nothing they do can be undone or
    // half-written (each key is still authorised and validated as it runs, and the first failure
    // is the answer), and under READ COMMITTED each statement takes its own snapshot either way.
    // Holding a connection for the whole batch would only throttle the pool.
    if (calls.every((item) => metaOf(item.procedure).kind === 'query')) {
      return runConcurrently(context, calls);
    }
    await preflight(context, calls);
    return runInTransaction({ ...context, db }, (inner) => run({ ...context, ...inner }, calls));
  };
}
