import { silentLogger } from '@checkline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from './bootstrap.ts';
import { users } from './db/schema.ts';
import type { AuthTestKit } from './test-support.ts';
import { startAuth } from './test-support.ts';

let auth: AuthTestKit;

beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

describe('bootstrap', () => {
  it('refuses to create the first admin with a weak ADMIN_PASSWORD, and creates nobody', async () => {
    await auth.db.delete(users);
    for (const password of ['short', 'password1234']) {
      await expect(
        bootstrap(auth.db, { email: 'first@example.com', password }, silentLogger),
      ).rejects.toThrow(/ADMIN_PASSWORD is not acceptable/);
    }
    expect(await auth.db.select().from(users)).toEqual([]);
    await bootstrap(
      auth.db,
      { email: 'first@example.com', password: 'a sound admin password' },
      silentLogger,
    );
    expect((await auth.db.select().from(users)).map((user) => user.email)).toEqual([
      'first@example.com',
    ]);
  });

  it('takes any ADMIN_PASSWORD once users exist, since it is not used then', async () => {
    await expect(
      bootstrap(auth.db, { email: 'other@example.com', password: 'short' }, silentLogger),
    ).resolves.toBeUndefined();
  });
});
