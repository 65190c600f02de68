import type { Metrics } from '@checkline/core';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * What a request is counted under. A surface sets it once it knows the plugin and procedure are
 * real, so a caller inventing names cannot grow the number of series.
 */
export interface RequestLabels {
  /** `keyed`, `rpc`, `rest`, `route` (a plugin's raw route) or `other`. */
  surface: string;
  plugin: string;
  /** The procedure; `batch` for a keyed call of several; the route's path for a raw route. */
  procedure: string;
}

const unclassified: RequestLabels = { surface: 'other', plugin: '', procedure: '' };

/** Counts every answered request and how long it took, by its labels and status. */
export function recordRequests(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async function recordRequests(c, next) {
    const started = performance.now();
    await next();
    const labels = { ...(c.var.metricsLabels ?? unclassified), status: String(c.res.status) };
    metrics.requests.inc(labels);
    metrics.requestDuration.observe(labels, (performance.now() - started) / 1_000);
  };
}
