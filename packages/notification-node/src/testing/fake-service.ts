import type { ReceivedRequest } from '@checkline/net/testing';
import { startLoopbackServer } from '@checkline/net/testing';

/** What the fake service answers: a status, headers, and a body (objects sent as JSON). */
export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type FakeService = Awaited<ReturnType<typeof startFakeService>>;

/**
 * A loopback server playing an external service (Slack, Telegram, Twilio, ...) by answers
 * rather than by hand: queued answers first (`answerNext`), else `answer(request)`.
 */
export async function startFakeService(
  answer: (request: ReceivedRequest) => FakeAnswer = () => ({ status: 200, body: {} }),
) {
  const queued: FakeAnswer[] = [];
  const server = await startLoopbackServer((request, response) => {
    const { status = 200, headers = {}, body } = queued.shift() ?? answer(request);
    const text = typeof body === 'string' || body === undefined ? body : JSON.stringify(body);
    const type = typeof body === 'object' ? { 'content-type': 'application/json' } : {};
    response.writeHead(status, { ...type, ...headers });
    response.end(text);
  });
  return {
    ...server,
    requests: server.requests,
    /** Answers the next requests with these, in order, before falling back to `answer`. */
    answerNext: (...answers: FakeAnswer[]) => void queued.push(...answers),
  };
}

/** The JSON body of a received request. */
export const jsonBody = (request: ReceivedRequest | undefined): Record<string, unknown> => {
  if (!request) throw new Error('The fake service received no request');
  return JSON.parse(request.body) as Record<string, unknown>;
};
