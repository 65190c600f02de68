import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { oauthTokens, preferences } from '../db/schema.ts';
import { saveLink } from '../oauth/token-store.ts';
import { NotificationState } from '../state.ts';
import { testStrategy } from '../testing/test-strategy.ts';
import { Keyring } from '@checkline/core';
import { NotificationStrategyRegistry } from './registry.ts';
import { destination, secret } from '@checkline/notification-node';
import { updateStrategy } from './service.ts';
import { updateMyChannel } from '../preferences/service.ts';
import { testPrincipal } from '@checkline/core/testing';
import { versionedSchema } from '@checkline/notification-node';

/**
 * A destination users are sent to as well (ntfy's default server, Slack's address): moving it
 * takes along nothing users entered or linked for the old one.
 */
const config = versionedSchema({
  version: 1,
  schema: z.object({
    serverUrl: destination(z.url(), { usersFallBackToIt: true }).describe('Default server'),
    label: z.string().optional(),
  }),
});
const userConfig = versionedSchema({
  version: 1,
  schema: z.object({
    ownServerUrl: destination(z.url()).optional().describe('Own server'),
    token: secret().describe('Token'),
  }),
});

const folder = fileURLToPath(new URL('../../drizzle', import.meta.url));
let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase([{ pluginId: 'notification', folder }]);
});
afterAll(() => database.close());

function setUp(oauth: boolean) {
  const registry = new NotificationStrategyRegistry();
  const owner = `ch-${randomBytes(3).toString('hex')}`;
  registry.register(
    owner,
    testStrategy({
      config,
      userConfig,
      ...(oauth && {
        contactResolution: { type: 'oauth-link' as const },
        oauth: {
          clientId: () => 'client',
          clientSecret: () => 'client-secret',
          scopes: [],
          authorizationUrl: () => 'http://127.0.0.1:9/authorize',
          tokenUrl: () => 'http://127.0.0.1:9/token',
          extractExternalId: () => 'U1',
        },
      }),
    }),
  );
  const keyring = Keyring.ephemeral();
  const state = new NotificationState({ strategies: registry, keyring });
  state.attach(database.db, silentLogger);
  return { state, keyring, strategyId: `${owner}.test` };
}

const userIds = { usesDefault: randomUUID(), ownServer: randomUUID() };

async function userRow(userId: string, strategyId: string) {
  const [row] = await database.db
    .select()
    .from(preferences)
    .where(and(eq(preferences.userId, userId), eq(preferences.strategyId, strategyId)));
  return row;
}

describe('moving a destination users are sent to', () => {
  it.each([
    ['a user-config strategy', false],
    ['an OAuth strategy', true],
  ])('drops what users entered or linked for the old one (%s)', async (_name, oauth) => {
    const { state, keyring, strategyId } = setUp(oauth);
    const db = database.db;
    await updateStrategy(state, db, {
      strategyId,
      config: { serverUrl: 'https://push.example.com' },
    });
    const user = (id: string) =>
      testPrincipal([`${strategyId.split('.')[0]}.strategy.test.use`], { id, kind: 'user' });
    await updateMyChannel(state, db, user(userIds.usesDefault), userIds.usesDefault, {
      strategyId,
      config: { token: 'default-user-token' },
    });
    await updateMyChannel(state, db, user(userIds.ownServer), userIds.ownServer, {
      strategyId,
      config: { ownServerUrl: 'https://own.example.com', token: 'own-server-token' },
    });
    if (oauth) {
      await saveLink(db, keyring, {
        userId: userIds.usesDefault,
        strategyId,
        externalId: 'U1',
        tokens: { accessToken: 'linked-access-token', refreshToken: 'linked-refresh' },
      });
    }

    // Another path on the same server moves nothing.
    await updateStrategy(state, db, {
      strategyId,
      config: { serverUrl: 'https://push.example.com/v2', label: 'same server' },
    });
    expect(JSON.stringify((await userRow(userIds.usesDefault, strategyId))!.config)).toMatch(
      /enc:/,
    );

    await updateStrategy(state, db, {
      strategyId,
      config: { serverUrl: 'https://elsewhere.test' },
    });
    const moved = await userRow(userIds.usesDefault, strategyId);
    expect(moved!.config).toEqual({});
    const own = await userRow(userIds.ownServer, strategyId);
    expect(own!.config).toMatchObject({ ownServerUrl: 'https://own.example.com' });
    expect(JSON.stringify(own!.config)).toMatch(/enc:/);
    const links = await db.select().from(oauthTokens).where(eq(oauthTokens.strategyId, strategyId));
    expect(links).toEqual([]);
    expect(moved!.externalId).toBeNull();
  });
});
