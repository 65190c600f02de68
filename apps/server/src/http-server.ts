import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from '@checkline/core';

export interface HttpServerOptions {
  port: number;
  host: string;
  /** How long in-flight requests may take to finish on shutdown. Default 10 s. */
  drainTimeoutMs?: number;
}

/** Serves `fetch` on a port; `drain()` stops accepting, lets in-flight requests finish, closes. */
export async function startHttpServer(
  fetch: (request: Request) => Response | Promise<Response>,
  options: HttpServerOptions,
  logger: Logger,
) {
  const server = serve({ fetch, port: options.port, hostname: options.host });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  let draining: Promise<void> | undefined;
  function drain(): Promise<void> {
    draining ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        logger.warn('drain timed out; closing open connections');
        if ('closeAllConnections' in server) server.closeAllConnections();
      }, options.drainTimeoutMs ?? 10_000);
      // Keep-alive connections hold close() open once their request is done: close them as
      // they fall idle.
      const closeIdle = () => {
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      };
      const sweeper = setInterval(closeIdle, 50);
      server.close(() => {
        clearTimeout(force);
        clearInterval(sweeper);
        resolve();
      });
      closeIdle();
    });
    return draining;
  }

  return { port, url: `http://${options.host}:${port}`, drain };
}
