import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

let server: TestServer;
let listening: { url: string; close(): Promise<void> };
let adminCookie: string;
let names = 0;

beforeAll(async () => {
  server = await createTestServer({
    notification: { inboxStreams: { perUser: 2, perProcess: 3 } },
  });
  listening = await server.listen();
  adminCookie = (await server.adminSession()).cookie;
});
afterAll(async () => {
  await listening.close();
  await server.close();
});

async function newUser() {
  const email = `stream-limits-${++names}@example.com`;
  const password = 'a sound enough password';
  const response = await server.request('/api/auth/', {
    method: 'POST',
    headers: { cookie: adminCookie, origin: testEnv.BASE_URL, 'content-type': 'application/json' },
    body: JSON.stringify({ createUser: { email, password } }),
  });
  expect(response.status).toBe(200);
  return (await server.sessionOf(email, password)).cookie;
}

/** One GET of the stream over the real port. */
async function openStream(cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${listening.url}/rest/notification/streamNotifications`, {
    headers: { cookie, origin: testEnv.BASE_URL, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  return {
    response,
    /** Resolves true once the server ends the stream, false if it is still open after 5 s. */
    async ends(): Promise<boolean> {
      const timer = setTimeout(() => controller.abort(), 5_000);
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) return true;
        }
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    /** Everything until the end (a refusal's JSON body). */
    async whole() {
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += value;
      }
    },
    /** What arrives up to the first event with data (keep-alive comments come before it). */
    async firstEvent() {
      let text = '';
      while (!text.includes('data:')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
      }
      return text;
    },
    close() {
      controller.abort();
      return reader.cancel().catch(() => {});
    },
  };
}

describe('stream limits', () => {
  it('answers 429 with Retry-After past the process limit; a user at their own limit replaces their oldest stream', async () => {
    const [ada, bob, cyd] = [await newUser(), await newUser(), await newUser()];
    const adaFirst = await openStream(ada);
    const adaSecond = await openStream(ada);
    const bobs = await openStream(bob);
    const open = [adaFirst, adaSecond, bobs];
    try {
      for (const stream of open) {
        expect(stream.response.status).toBe(200);
        expect(await stream.firstEvent()).toContain('"kind":"unread"');
      }

      const refused = await openStream(cyd);
      open.push(refused);
      expect(refused.response.status).toBe(429);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(await refused.whole())).toMatchObject({ code: 'TOO_MANY_REQUESTS' });

      const adaThird = await openStream(ada);
      open.push(adaThird);
      expect(adaThird.response.status).toBe(200);
      expect(await adaThird.firstEvent()).toContain('"kind":"unread"');
      expect(await adaFirst.ends()).toBe(true);
    } finally {
      for (const stream of open) await stream.close();
    }
  });
});
