import { idempotencyOf, type Logger, type RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import type { Runtime } from '@checkline/core';
import type { PrincipalResolver } from './principal-resolver.ts';

export interface RequestScope {
  context: RequestContext;
  /** Runs the tasks queued through `afterCommit`; call once the request succeeded. */
  committed(): void;
}

export interface RequestScopeDeps {
  db: Database;
  runtime: Runtime;
  resolvePrincipal: PrincipalResolver;
}

/** Resolves the caller and builds the context every procedure of this request receives. */
export async function createRequestScope(
  deps: RequestScopeDeps,
  request: Request,
  requestId: string,
  logger: Logger,
): Promise<RequestScope> {
  const idempotency = idempotencyOf(request.headers);
  const principal = await deps.resolvePrincipal(request);
  const tasks: (() => void | Promise<void>)[] = [];
  const afterCommit = (task: () => void | Promise<void>) => void tasks.push(task);
  return {
    context: {
      principal,
      db: deps.db,
      requestId,
      logger,
      resources: deps.runtime.resources,
      cursors: deps.runtime.cursors,
      plugins: deps.runtime.plugins,
      afterCommit,
      // Outside a transaction there is nothing to wait for: the event is written at once. Mutations
      // and batches swap in their transaction's `emit` (runInTransaction).
      emit: (type, payload) => deps.runtime.events.publish(type, payload),
      dispatchEvents: (ids) => deps.runtime.events.dispatch(ids),
      ...(idempotency && { idempotency }),
    },
    committed() {
      for (const task of tasks) {
        Promise.resolve()
          .then(task)
          .catch((error: unknown) => logger.error({ err: error }, 'after-commit task failed'));
      }
    },
  };
}
