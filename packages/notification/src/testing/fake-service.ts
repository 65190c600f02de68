import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake service received, body read in full. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the fake service answers: a status, headers, and a body (objects sent as JSON). */
export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeService {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  requests: ReceivedRequest[];
  /** Answers the next requests with these, in order, before falling back to the default. */
  answerNext(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 playing an external service (Slack, Telegram, Twilio, ...):
 * it records every request and answers with queued answers, else with `answer(request)`.
 */
export async function startFakeService(
  answer: (request: ReceivedRequest) => FakeAnswer = () => ({ status: 200, body: {} }),
): Promise<FakeService> {
  const requests: ReceivedRequest[] = [];
  const queued: FakeAnswer[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const { status = 200, headers = {}, body } = queued.shift() ?? answer(request);
      const text = typeof body === 'string' || body === undefined ? body : JSON.stringify(body);
      const type = typeof body === 'object' ? { 'content-type': 'application/json' } : {};
      outgoing.writeHead(status, { ...type, ...headers });
      outgoing.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerNext: (...answers) => queued.push(...answers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The JSON body of a received request. */
export const jsonBody = (request: ReceivedRequest | undefined): Record<string, unknown> => {
  if (!request) throw new Error('The fake service received no request');
  return JSON.parse(request.body) as Record<string, unknown>;
};
