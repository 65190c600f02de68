import { randomBytes, randomUUID } from 'node:crypto';
import { silentLogger } from '@checkline/core';
import type { DatabaseHandle } from '@checkline/db';
import { queryRows } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keyring } from '@checkline/core';
import { rotateSecrets } from '../strategies/secret-rotation.ts';
import { inboxMigrations } from '../testing/fixture.ts';
import { readLink, removeLink, saveLink } from './token-store.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase(inboxMigrations());
});
afterAll(() => database?.close());

const STRATEGY = 'chat-plugin.chat';
const rawRow = async (userId: string) =>
  (
    await queryRows<{ access_token_ciphertext: string; refresh_token_ciphertext: string }>(
      database.db,
      sql`select access_token_ciphertext, refresh_token_ciphertext from notification.oauth_tokens
          where user_id = ${userId}`,
    )
  )[0];

describe('stored OAuth tokens', () => {
  it('are encrypted at rest and open only in their own row and column', async () => {
    const keyring = Keyring.ephemeral();
    const [owner, other] = [randomUUID(), randomUUID()];
    for (const userId of [owner, other]) {
      await saveLink(database.db, keyring, {
        userId,
        strategyId: STRATEGY,
        externalId: `U-${userId}`,
        tokens: { accessToken: `access-${userId}`, refreshToken: `refresh-${userId}` },
      });
    }
    const raw = (await rawRow(owner))!;
    expect(JSON.stringify(raw)).not.toContain(`access-${owner}`);
    expect(JSON.stringify(raw)).not.toContain(`refresh-${owner}`);
    expect(
      await readLink(database.db, keyring, { userId: owner, strategyId: STRATEGY }),
    ).toMatchObject({
      accessToken: `access-${owner}`,
      refreshToken: `refresh-${owner}`,
      expiresAt: null,
    });
    // Another user's ciphertext copied into this row does not decrypt.
    await database.db.execute(
      sql`update notification.oauth_tokens set access_token_ciphertext =
          (select access_token_ciphertext from notification.oauth_tokens where user_id = ${other})
          where user_id = ${owner}`,
    );
    await expect(
      readLink(database.db, keyring, { userId: owner, strategyId: STRATEGY }),
    ).rejects.toThrow(/fails authentication/);
    expect(await removeLink(database.db, { userId: owner, strategyId: STRATEGY })).toBe(true);
    expect(await readLink(database.db, keyring, { userId: owner, strategyId: STRATEGY })).toBe(
      undefined,
    );
  });

  it('are re-encrypted under the new key by secrets rotation, then left alone', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const userId = randomUUID();
    // Rows of the other test are under a key this rotation does not know.
    await database.db.execute(sql`delete from notification.oauth_tokens`);
    await saveLink(database.db, new Keyring(oldKey), {
      userId,
      strategyId: STRATEGY,
      externalId: 'U-ROTATE',
      tokens: { accessToken: 'rotating-access', refreshToken: 'rotating-refresh', expiresIn: 60 },
    });
    const before = (await rawRow(userId))!;
    const rotating = new Keyring(newKey, [oldKey]);
    const first = await rotateSecrets(database.db, rotating, silentLogger);
    expect(first.failed).toBe(0);
    expect(first.reencrypted).toBeGreaterThanOrEqual(2);
    const after = (await rawRow(userId))!;
    expect(after.access_token_ciphertext).not.toBe(before.access_token_ciphertext);
    expect(after.refresh_token_ciphertext).toContain(`:${rotating.currentKeyId}:`);
    // Only the new key is needed from now on.
    expect(
      await readLink(database.db, new Keyring(newKey), { userId, strategyId: STRATEGY }),
    ).toMatchObject({ accessToken: 'rotating-access', refreshToken: 'rotating-refresh' });
    const second = await rotateSecrets(database.db, rotating, silentLogger);
    expect(second.reencrypted).toBe(0);
  });
});
