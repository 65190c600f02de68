import { testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notificationAccess } from '../access.ts';
import { Keyring } from '@checkline/core';
import type { StrategySendContext } from '@checkline/notification-node';
import { defineNotificationStrategy } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';
import type { DeliveryProcess } from '../testing/fixture.ts';
import {
  configureStrategy,
  createUsers,
  deliveryMigrations,
  qualified,
  startDeliveryProcess,
  useRule,
} from '../testing/fixture.ts';
import type { OAuthProvider } from '../testing/oauth-provider.ts';
import { startOAuthProvider } from '../testing/oauth-provider.ts';
import { processDatabases } from '../testing/process-databases.ts';
import { currentTokens } from './refresh.ts';
import { readLink, saveLink } from './token-store.ts';

/**
 * Two server processes on one database refresh one user's expiring token at the same time: the
 * provider sees one refresh, and both use its result. On PostgreSQL each process has its own
 * pool; on PGlite they share its one connection, which still interleaves their statements.
 */
let database: DatabaseHandle;
let provider: OAuthProvider;
let pools: ReturnType<typeof processDatabases>;
const processes: DeliveryProcess[] = [];
const keyring = Keyring.ephemeral();
const sent: { process: string; accessToken: string | undefined }[] = [];
const STRATEGY = qualified('linked');

const linkedStrategy = (process: string) =>
  defineNotificationStrategy({
    id: 'linked',
    displayName: 'Linked chat',
    config: versionedSchema({ version: 1, schema: z.object({ providerUrl: z.string() }) }),
    contactResolution: { type: 'oauth-link' },
    oauth: {
      clientId: () => 'two-process-client',
      clientSecret: () => 'two-process-secret',
      scopes: ['chat:write'],
      authorizationUrl: (config) => `${config.providerUrl}/authorize`,
      tokenUrl: (config) => `${config.providerUrl}/token`,
      extractExternalId: (token) => String((token.authed_user as { id: string }).id),
    },
    send(context: StrategySendContext<{ providerUrl: string }, unknown>) {
      sent.push({ process, accessToken: context.accessToken });
      return Promise.resolve({ success: true });
    },
  });

async function expiringLink(userId: string, refreshToken: string) {
  await saveLink(database.db, keyring, {
    userId,
    strategyId: STRATEGY,
    externalId: 'U-TWO',
    tokens: { accessToken: `access-of-${refreshToken}`, refreshToken, expiresIn: 20 },
  });
}

const refreshCalls = () => provider.tokenCalls.filter((call) => call.grantType === 'refresh_token');

beforeAll(async () => {
  database = await createTestDatabase(deliveryMigrations());
  provider = await startOAuthProvider();
  pools = processDatabases(database);
  for (const name of ['a', 'b']) {
    processes.push(
      await startDeliveryProcess(
        pools.connect(),
        [linkedStrategy(name)],
        { batchSize: 1 },
        { keyring },
      ),
    );
  }
  await configureStrategy(database.db, 'linked', { config: { providerUrl: provider.url } });
});

afterAll(async () => {
  for (const process of processes) await process.stop();
  await pools?.close();
  await provider?.stop();
  await database?.close();
});

describe('two processes refreshing one expiring token', () => {
  it('ask the provider once and both use the new token', async () => {
    const [userId] = await createUsers(database.db, ['both@example.com'], [useRule('linked')]);
    await expiringLink(userId!, 'refresh-one');
    const before = refreshCalls().length;
    const outcomes = await Promise.all(
      processes.map((process) =>
        currentTokens(
          process.state,
          process.state.strategies.get(STRATEGY)!,
          { providerUrl: provider.url },
          userId!,
        ),
      ),
    );
    expect(refreshCalls().length - before).toBe(1);
    expect(refreshCalls().at(-1)!.body.refresh_token).toBe('refresh-one');
    const issued = refreshCalls().at(-1)!.answer;
    for (const outcome of outcomes) {
      expect(outcome.kind).toBe('token');
      if (outcome.kind === 'token') expect(outcome.link.accessToken).toBe(issued.access_token);
    }
    const stored = await readLink(database.db, keyring, { userId: userId!, strategyId: STRATEGY });
    expect(stored).toMatchObject({
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
    });
  });

  it('deliver through both workers at once with one refresh', async () => {
    const [userId] = await createUsers(database.db, ['workers@example.com'], [useRule('linked')]);
    await expiringLink(userId!, 'refresh-two');
    const sender = testPrincipal([notificationAccess.send]);
    for (const title of ['first', 'second']) {
      await processes[0]!.notification(sender).sendExternal({
        userIds: [userId!],
        strategyId: STRATEGY,
        notification: { title, type: 'test.oauth' },
      });
    }
    const before = refreshCalls().length;
    sent.length = 0;
    await Promise.all(processes.map((process) => process.worker().tick()));
    await Promise.all(processes.map((process) => process.worker().idle()));
    await processes[0]!.worker().drain();
    expect(refreshCalls().length - before).toBe(1);
    const issued = refreshCalls().at(-1)!.answer;
    expect(sent).toHaveLength(2);
    for (const send of sent) expect(send.accessToken).toBe(issued.access_token);
  });
});
