import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metrics } from '@checkline/core';
import type { Hono } from 'hono';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares digests of equal length, so neither the token nor its length leaks through timing. */
function sameToken(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

/**
 * `GET /metrics`: the Prometheus text exposition, for `Authorization: Bearer {METRICS_TOKEN}`.
 * Without a token configured the endpoint does not exist (404), whoever asks.
 */
export function mountMetricsRoute(app: Hono<AppEnv>, metrics: Metrics, token: string | undefined) {
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', async (c) => {
    if (!expected) return errorResponse('NOT_FOUND', 'Not found', c.var.requestId);
    const header = c.req.header('authorization') ?? '';
    const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
    if (!sameToken(given, expected)) {
      return errorResponse('UNAUTHORIZED', 'A valid metrics token is required', c.var.requestId, {
        headers: { 'www-authenticate': 'Bearer realm="metrics"' },
      });
    }
    return new Response(await metrics.scrape(), {
      headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' },
    });
  });
}
