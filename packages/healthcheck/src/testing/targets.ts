import { createServer as createHttpServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** What the HTTP target answers on one path. */
export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hang: true }
  /** 200 with a body that never ends: chunks are written until the client goes away. */
  | { endless: true };

/** Writes `chunk` again each time the socket drains, until the response is closed. */
function writeForever(response: ServerResponse, chunk: Buffer) {
  response.writeHead(200, { 'content-type': 'text/plain' });
  const more = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on('drain', more);
  more();
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export interface HttpTargetOptions {
  /** Called as each request arrives, before it is answered (e.g. to move a test clock). */
  onRequest?: (path: string) => void;
}

/**
 * A real HTTP server on 127.0.0.1 whose answer is scripted per path (200 "ok" unless told
 * otherwise) and which counts the requests each path received and keeps their last headers.
 */
export async function startHttpTarget(options: HttpTargetOptions = {}) {
  const behaviours = new Map<string, Behaviour>();
  const hits = new Map<string, number>();
  const headers = new Map<string, IncomingHttpHeaders>();
  const server = createHttpServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://target').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    headers.set(path, request.headers);
    options.onRequest?.(path);
    const behaviour = behaviours.get(path) ?? { status: 200, body: 'ok' };
    if ('hang' in behaviour) return;
    if ('endless' in behaviour) return writeForever(response, Buffer.alloc(64 * 1024, 'x'));
    const answer = () =>
      response.writeHead(behaviour.status, behaviour.headers).end(behaviour.body);
    if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
    else answer();
  });
  const port = await listen(server);
  return {
    url: (path = '/') => `http://127.0.0.1:${port}${path}`,
    respond(path: string, behaviour: Behaviour) {
      behaviours.set(path, behaviour);
    },
    hits: (path: string) => hits.get(path) ?? 0,
    /** The headers of the last request to `path`. */
    headersOf: (path: string) => headers.get(path),
    port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type HttpTarget = Awaited<ReturnType<typeof startHttpTarget>>;

/** A TCP port on 127.0.0.1 that accepts connections and counts them. */
export async function startTcpTarget() {
  let accepted = 0;
  const server = createTcpServer((socket) => {
    accepted += 1;
    socket.destroy();
  });
  const port = await listen(server);
  return {
    port,
    accepted: () => accepted,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A port on 127.0.0.1 that nothing listens on: bound once, then closed. */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
