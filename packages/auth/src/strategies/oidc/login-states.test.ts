import { createTestDatabase } from '@checkline/db/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginStates } from '../../db/schema.ts';
import { LOGIN_STATE_TTL_MS, saveLoginState, takeLoginState } from './login-states.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const folder = fileURLToPath(new URL('../../../drizzle', import.meta.url));
const login = { provider: 'acme', codeVerifier: 'verifier', nonce: 'nonce', returnTo: '/x' };

beforeAll(async () => {
  database = await createTestDatabase([{ pluginId: 'auth', folder }]);
});
afterAll(() => database?.close());

describe('login states', () => {
  it('gives a state back once, then never again', async () => {
    await saveLoginState(database.db, 'state-once', login);
    await expect(takeLoginState(database.db, 'acme', 'state-once')).resolves.toEqual(login);
    await expect(takeLoginState(database.db, 'acme', 'state-once')).resolves.toBeUndefined();
  });

  it('does not give a state to another provider', async () => {
    await saveLoginState(database.db, 'state-other', login);
    await expect(takeLoginState(database.db, 'other', 'state-other')).resolves.toBeUndefined();
    await expect(takeLoginState(database.db, 'acme', 'state-other')).resolves.toEqual(login);
  });

  it('does not give back a state past its ten minutes, and spends it all the same', async () => {
    const startedAt = Date.now();
    await saveLoginState(database.db, 'state-late', login, startedAt);
    const late = startedAt + LOGIN_STATE_TTL_MS + 1;
    await expect(takeLoginState(database.db, 'acme', 'state-late', late)).resolves.toBeUndefined();
    await expect(
      takeLoginState(database.db, 'acme', 'state-late', startedAt),
    ).resolves.toBeUndefined();
  });

  it('stores only the hash of the state and clears expired ones as new ones start', async () => {
    const long = Date.now() - 2 * LOGIN_STATE_TTL_MS;
    await saveLoginState(database.db, 'state-abandoned', login, long);
    await saveLoginState(database.db, 'state-fresh', login);
    const rows = await database.db.select().from(loginStates);
    expect(rows.map((row) => row.stateHash)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(JSON.stringify(rows)).not.toContain('state-fresh');
  });
});
