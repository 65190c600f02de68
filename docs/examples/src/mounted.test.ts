import type { FakeService } from '@checkline/notification-node/testing';
import { loopbackEgress, startFakeService } from '@checkline/notification-node/testing';
import { createTestServer, testAdmin, type TestServer } from '@checkline/server/test-server';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerCheckPlugin } from './banner-check.ts';
import { notesPlugin } from './notes.ts';
import { createPagerChannelPlugin } from './pager-channel.ts';

// The guide's two examples mounted on a real server, configured and used through the API.
let server: TestServer;
let session: { cookie: string; origin: string };
let pager: FakeService;
let greeter: Server;

beforeAll(async () => {
  pager = await startFakeService(() => ({ status: 202, body: { id: 'page-1' } }));
  greeter = createServer((socket) => {
    socket.on('error', () => undefined); // the check closes as soon as it has read the line
    socket.end('220 mail.example ESMTP\r\n');
  });
  await new Promise<void>((resolve) => greeter.listen(0, '127.0.0.1', resolve));
  server = await createTestServer({
    extraPlugins: [
      notesPlugin,
      createPagerChannelPlugin({ egress: loopbackEgress() }),
      bannerCheckPlugin,
    ],
  });
  session = await server.adminSession();
});
afterAll(async () => {
  await server?.close();
  await pager?.close();
  await new Promise((resolve) => greeter?.close(resolve));
});

/** A keyed call with the admin's session; the answer of its one key. */
async function call(pluginId: string, procedure: string, input: unknown) {
  const response = await server.request(`/api/${pluginId}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie, origin: session.origin },
    body: JSON.stringify({ [procedure]: input }),
  });
  const answer = (await response.json()) as Record<string, Record<string, unknown>>;
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(answer)}`);
  return answer[procedure]!;
}

describe('the plugin guide, mounted', () => {
  it('serves the notes plugin on the keyed and REST surfaces, from its own table', async () => {
    const note = await call('notes', 'createNote', { text: 'rotate the on-call' });
    expect(note).toMatchObject({ text: 'rotate the on-call' });
    const response = await server.request('/rest/notes/getNotes', {
      headers: { cookie: session.cookie },
    });
    expect(response.status).toBe(200);
    const { notes } = (await response.json()) as { notes: { id: string; text: string }[] };
    expect(notes.map(({ id, text }) => ({ id, text }))).toEqual([
      { id: note.id, text: 'rotate the on-call' },
    ]);
  });

  it('delivers through the pager channel once configured through the API', async () => {
    await call('notification', 'updateStrategy', {
      strategyId: 'notification-pager.pager',
      enabled: true,
      config: { apiBaseUrl: pager.url, apiToken: 'pager-t0ken' },
    });
    await call('notification', 'updateMyChannel', {
      strategyId: 'notification-pager.pager',
      enabled: true,
      config: { pagerId: 'ops-primary' },
    });
    const { users } = (await call('auth', 'getUsers', {})) as {
      users: { id: string; email: string }[];
    };
    const adminId = users.find((user) => user.email === testAdmin.email)!.id;
    const sent = await call('notification', 'sendExternal', {
      userIds: [adminId],
      notification: { type: 'demo.page', title: 'payments down', description: 'Since 12:00' },
    });
    const deadline = Date.now() + 20_000;
    let status: unknown;
    while (Date.now() < deadline) {
      const { deliveries } = (await call('notification', 'getDeliveries', {
        notificationId: sent.notificationId,
        strategyId: 'notification-pager.pager',
      })) as { deliveries: { status: string }[] };
      status = deliveries[0]?.status;
      if (status && status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe('sent');
    expect(JSON.parse(pager.requests.at(-1)!.body)).toMatchObject({
      pager: 'ops-primary',
      title: 'payments down',
    });
  });

  it('creates and runs a banner check', async () => {
    const { types } = (await call('healthcheck', 'getHealthCheckTypes', {})) as {
      types: { id: string }[];
    };
    expect(types.map((type) => type.id)).toContain('banner-check.banner');
    const system = await call('catalog', 'createSystem', { name: 'mail' });
    const check = await call('healthcheck', 'createHealthCheck', {
      systemId: system.id,
      name: 'mail greeting',
      type: 'banner-check.banner',
      config: { host: '127.0.0.1', port: (greeter.address() as AddressInfo).port, expect: '220 ' },
      intervalSeconds: 60,
    });
    const result = await call('healthcheck', 'runHealthCheck', { id: check.id });
    expect(result).toMatchObject({
      status: 'pass',
      message: 'Greeted with 220 mail.example ESMTP',
    });
  });
});
