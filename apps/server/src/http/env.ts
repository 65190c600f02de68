import type { Logger, Principal } from '@checkline/core';
import type { Context } from 'hono';
import type { RequestLabels } from './request-metrics.ts';

/** What the app's middleware puts on every Hono context. */
export type AppEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    /** The caller, once a surface or route has resolved it (for the access log). */
    principal: Principal | undefined;
    /** What `GET /metrics` counts the request under, once a surface knows it. */
    metricsLabels: RequestLabels | undefined;
  };
};

export type AppContext = Context<AppEnv>;
