import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from './generated/client/client/index.ts';
import {
  notificationStreamNotifications,
  type NotificationStreamNotificationsResponse,
} from './generated/client/index.ts';
import { createAdminKey } from './support/admin-key.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/** Issue 24.4: the stream described as what each event carries, read by a generated client. */
let server: TestServer;
let adminKey: string;
let document: Record<string, any>;
let ada: { id: string; cookie: string };

beforeAll(async () => {
  server = await createTestServer();
  adminKey = await createAdminKey(server);
  document = (await (
    await server.request('/api/openapi.json', { headers: { authorization: `Bearer ${adminKey}` } })
  ).json()) as Record<string, any>;
  const email = 'stream-reader@example.com';
  const password = 'a sound enough password';
  const created = await server.keyed('auth', { createUser: { email, password } }, adminKey);
  const { createUser } = (await created.json()) as { createUser: { id: string } };
  ada = { id: createUser.id, cookie: (await server.sessionOf(email, password)).cookie };
});
afterAll(() => server.close());

const streamOk = () =>
  document.paths['/rest/notification/streamNotifications'].get.responses['200'] as Record<
    string,
    any
  >;

describe('the streamNotifications operation', () => {
  it('is text/event-stream whose schema is one event payload, not the oRPC wrapper', () => {
    const schema = streamOk().content['text/event-stream'].schema as Record<string, any>;
    expect(schema.properties?.event).toBeUndefined();
    const kinds = (schema.anyOf ?? schema.oneOf).map(
      (variant: Record<string, any>) => variant.properties.kind.const,
    );
    expect(kinds.sort()).toEqual(['notification', 'unread']);
    expect(streamOk().description).toContain('event: message');
  });

  it('yields, through the generated client, events typed and shaped as the document says', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const validate = ajv.compile(
      JSON.parse(
        JSON.stringify(streamOk().content['text/event-stream'].schema).replaceAll(
          '"#/components/',
          '"doc#/components/',
        ),
      ),
    );
    const listening = await server.listen();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 15_000);
    try {
      const client = createClient({ baseUrl: listening.url });
      const { stream } = await notificationStreamNotifications({
        client,
        headers: { cookie: ada.cookie, origin: testEnv.BASE_URL },
        signal: controller.signal,
        sseMaxRetryAttempts: 0,
      });
      const events: NotificationStreamNotificationsResponse[] = [];
      let sent = false;
      for await (const event of stream) {
        events.push(event);
        if (!sent) {
          sent = true;
          const notified = await server.keyed(
            'notification',
            {
              notifyUsers: {
                userIds: [ada.id],
                notification: { title: 'Streamed', type: 'test.stream', body: 'hello' },
              },
            },
            adminKey,
          );
          expect(notified.status).toBe(200);
        }
        if (events.some((seen) => seen.kind === 'notification')) break;
      }
      expect(events.length).toBeGreaterThanOrEqual(2);
      for (const event of events) expect(validate(event), JSON.stringify(event)).toBe(true);
      const titles = events.flatMap((event) =>
        event.kind === 'notification' ? [event.notification.title] : [],
      );
      expect(titles).toEqual(['Streamed']);
    } finally {
      clearTimeout(timer);
      controller.abort();
      await listening.close();
    }
  });
});
