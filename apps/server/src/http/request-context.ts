import type { Logger, RequestContext } from '@checkline/core';
import type { Database } from '@checkline/db';
import type { Runtime } from '@checkline/core';
import type { PrincipalResolver } from './principal-resolver.ts';

export interface RequestScope {
  context: RequestContext;
  /** Runs the tasks queued through `afterCommit` and `emit`; call once the request succeeded. */
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
      plugins: deps.runtime.plugins,
      afterCommit,
      emit: (type, payload) => afterCommit(() => deps.runtime.events.publish(type, payload)),
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
