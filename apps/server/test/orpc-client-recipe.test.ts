import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checklineClient, firstInboxEvents } from './recipes/orpc-client.ts';
import { createAdminKey } from './support/admin-key.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/** Issue 24.6: the `@orpc/client` recipe of docs/api.md compiles (typecheck) and runs. */
const recipe = readFileSync(new URL('./recipes/orpc-client.ts', import.meta.url), 'utf8');
const apiDocs = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

let server: TestServer;
let listening: { url: string; close(): Promise<void> };
let adminKey: string;

beforeAll(async () => {
  server = await createTestServer();
  listening = await server.listen();
  adminKey = await createAdminKey(server);
});
afterAll(async () => {
  await listening.close();
  await server.close();
});

describe('the @orpc/client recipe', () => {
  it('is in docs/api.md word for word', () => {
    expect(apiDocs).toContain(`\`\`\`ts\n${recipe}\`\`\``);
  });

  it('calls a procedure with an application key, and reads a user stream with a session', async () => {
    const client = checklineClient(listening.url, { authorization: `Bearer ${adminKey}` });
    const created = await client.catalog.createSystem({ name: 'from-the-recipe' });
    expect(created.name).toBe('from-the-recipe');

    const email = 'recipe-reader@example.com';
    const password = 'a sound enough password';
    const user = await server.keyed('auth', { createUser: { email, password } }, adminKey);
    const { createUser } = (await user.json()) as { createUser: { id: string } };
    const { cookie } = await server.sessionOf(email, password);
    const reader = checklineClient(listening.url, { cookie, origin: testEnv.BASE_URL });
    const reading = firstInboxEvents(reader, 2);
    let finished = false;
    void reading.finally(() => (finished = true));
    // The stream opens on its own time: notify until it has seen two events (bounded).
    for (let attempt = 0; attempt < 50 && !finished; attempt++) {
      const sent = await client.notification.notifyUsers({
        userIds: [createUser.id],
        notification: { title: 'Recipe', type: 'test.recipe', body: 'hello' },
      });
      expect(sent.notified).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const events = await reading;
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ kind: 'unread' });
    expect(events[1]?.kind === 'notification' || events[1]?.kind === 'unread').toBe(true);
  });
});
