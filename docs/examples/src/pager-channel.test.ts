import type { FakeService } from '@checkline/notification-node/testing';
import {
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPagerStrategy } from './pager-channel.ts';

const strategy = createPagerStrategy({ egress: loopbackEgress() });
const TOKEN = 'pager-t0ken-s3cret';

let pager: FakeService;
beforeAll(async () => {
  // The pager service: 202 for the right token, 401 otherwise.
  pager = await startFakeService((request) =>
    request.headers.authorization === `Bearer ${TOKEN}`
      ? { status: 202, body: { id: 'page-1' } }
      : { status: 401, body: { error: 'bad token' } },
  );
});
afterAll(() => pager.close());

const send = (apiToken: string, notification = {}) =>
  strategy.send(
    sendContextFor(strategy, {
      contact: 'ops-primary',
      config: { apiBaseUrl: pager.url, apiToken },
      notification,
    }),
  );

describe('the plugin guide pager channel', () => {
  it('pages the contact with the token, the title and the body as text', async () => {
    const result = await send(TOKEN, {
      title: 'payments down',
      body: '**since** 12:00',
      importance: 'critical',
    });
    expect(result).toEqual({ success: true });
    const request = pager.requests.at(-1)!;
    expect(request.url).toBe('/v1/pages');
    expect(JSON.parse(request.body)).toEqual({
      pager: 'ops-primary',
      title: 'payments down',
      text: 'since 12:00',
      urgent: true,
    });
  });

  it('fails permanently, without retrying, when the service refuses the token', async () => {
    const result = await send('wrong-token');
    expect(result).toMatchObject({ success: false, permanent: true });
  });
});
