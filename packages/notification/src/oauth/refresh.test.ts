import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testPrincipal } from '@checkline/core/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notificationAccess } from '../access.ts';
import { deliveries, oauthTokens } from '../db/schema.ts';
import type { StrategySendContext } from '@checkline/notification-node';
import { defineNotificationStrategy } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';
import { createUsers, qualified, startDeliveryFixture, useRule } from '../testing/fixture.ts';
import { currentTokens } from './refresh.ts';
import { saveLink } from './token-store.ts';

/**
 * A token endpoint that is down for a while: the refresh gives its claim back, the delivery is
 * retried rather than skipped, and the next attempt refreshes. The endpoint is a loopback server
 * answering as an OAuth 2 token endpoint does.
 */
const answers: { status: number; body: Record<string, unknown> }[] = [];
const requests: URLSearchParams[] = [];
let tokenServer: Server;
let tokenUrl: string;
const sent: (string | undefined)[] = [];

const strategy = defineNotificationStrategy({
  id: 'flaky-provider',
  displayName: 'Flaky provider chat',
  config: versionedSchema({ version: 1, schema: z.object({ tokenUrl: z.string() }) }),
  contactResolution: { type: 'oauth-link' },
  oauth: {
    clientId: () => 'flaky-client',
    clientSecret: () => 'flaky-secret',
    scopes: ['chat:write'],
    authorizationUrl: () => 'http://127.0.0.1:9/authorize',
    tokenUrl: (config) => config.tokenUrl,
    extractExternalId: () => 'U-FLAKY',
  },
  send(context: StrategySendContext<{ tokenUrl: string }, unknown>) {
    sent.push(context.accessToken);
    return Promise.resolve({ success: true });
  },
});
const STRATEGY = qualified('flaky-provider');
let fixture: Awaited<ReturnType<typeof startDeliveryFixture>>;

beforeAll(async () => {
  tokenServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const answer = answers.shift() ?? { status: 500, body: { error: 'server_error' } };
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
  fixture = await startDeliveryFixture([strategy], {
    delivery: { maxAttempts: 3, retryDelaysMs: [5, 10] },
    settingsOf: () => ({ config: { tokenUrl } }),
  });
});
afterAll(async () => {
  await fixture?.close();
  await new Promise<void>((resolve) => tokenServer?.close(() => resolve()));
});

describe('a token endpoint that is down', () => {
  it('gives the refresh back and retries the delivery, which then refreshes', async () => {
    const { db } = fixture.database;
    const { state } = fixture.server;
    const [userId] = await createUsers(db, ['flaky@example.com'], [useRule('flaky-provider')]);
    await saveLink(db, state.keyring, {
      userId: userId!,
      strategyId: STRATEGY,
      externalId: 'U-FLAKY',
      tokens: { accessToken: 'old-access', refreshToken: 'the-refresh', expiresIn: 10 },
    });
    answers.push({ status: 503, body: {} });
    const down = await currentTokens(state, state.strategies.get(STRATEGY)!, { tokenUrl }, userId!);
    expect(down).toEqual({
      kind: 'unavailable',
      error: 'Refreshing the access token failed: The token endpoint answered 503',
    });
    const [row] = await db.select().from(oauthTokens).where(eq(oauthTokens.userId, userId!));
    expect(row).toMatchObject({ refreshingUntil: null, needsRelink: false });

    answers.push(
      { status: 503, body: {} },
      { status: 200, body: { access_token: 'new-access', expires_in: 3600 } },
    );
    const sender = testPrincipal([notificationAccess.send]);
    const { notificationId } = await fixture.server.notification(sender).sendExternal({
      userIds: [userId!],
      strategyId: STRATEGY,
      notification: { title: 'Down then up', type: 'test.oauth' },
    });
    await fixture.server.worker().drain();
    const [delivery] = await db
      .select()
      .from(deliveries)
      .where(eq(deliveries.messageId, notificationId));
    expect(delivery?.status).toBe('sent');
    expect(delivery?.attemptLog.map((attempt) => attempt.outcome)).toEqual(['retry', 'sent']);
    expect(delivery?.attemptLog[0]?.error).toBe(
      'Refreshing the access token failed: The token endpoint answered 503',
    );
    expect(sent).toEqual(['new-access']);
    expect(requests.at(-1)?.get('refresh_token')).toBe('the-refresh');
    expect(requests.at(-1)?.get('grant_type')).toBe('refresh_token');
  });
});
