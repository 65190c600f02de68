import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '@checkline/core';
import { appError, lazyChild } from '@checkline/core';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext, AppEnv } from './env.ts';
import { fail } from './scoped.ts';

/** The header carrying the caller's socket address to plugins (auth's rate limits). */
const CLIENT_IP_HEADER = 'x-checkline-client-ip';

/** Largest request body accepted on the API surfaces. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request id on the context, its child logger, and `x-request-id` on every response. */
export function assignRequestId(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function assignRequestId(c, next) {
    const requestId = randomUUID();
    c.set('requestId', requestId);
    c.set('logger', lazyChild(logger, { requestId }));
    await next();
    c.res.headers.set('x-request-id', requestId);
  };
}

/** Only the socket says who connected; a client-sent value of this header is never trusted. */
export function stampClientIp(): MiddlewareHandler<AppEnv> {
  return async function stampClientIp(c, next) {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const ip = incoming?.socket.remoteAddress;
    if (ip) c.req.raw.headers.set(CLIENT_IP_HEADER, ip);
    else c.req.raw.headers.delete(CLIENT_IP_HEADER);
    await next();
  };
}

const tooLarge = (c: AppContext) =>
  fail(c, appError('PAYLOAD_TOO_LARGE', 'The body is larger than 1 MiB'));

/**
 * 413 for bodies over 1 MiB. Hono's bodyLimit touches `request.body`, which makes the node
 * adapter build a full Request for every call; a declared length needs only its header (node
 * holds the body to it), so the stream is counted only when no length is declared.
 */
export function limitBody(): MiddlewareHandler<AppEnv> {
  const limitStreamedBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => tooLarge(c),
  });
  return async function limitBody(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined) return limitStreamedBody(c, next);
    if (Number(declared) > MAX_BODY_BYTES) return tooLarge(c);
    return next();
  };
}
