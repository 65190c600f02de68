import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';

describe('loadEnv', () => {
  it('applies the documented defaults', () => {
    expect(loadEnv({})).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      BASE_URL: 'http://localhost:3000',
      FRONTEND_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
    });
    expect(loadEnv({}).DATABASE_URL).toBeUndefined();
  });

  it('derives BASE_URL from PORT and FRONTEND_URL from BASE_URL, without trailing slashes', () => {
    expect(loadEnv({ PORT: '8080' }).BASE_URL).toBe('http://localhost:8080');
    const env = loadEnv({ BASE_URL: 'https://status.example.com/' });
    expect(env.FRONTEND_URL).toBe('https://status.example.com');
  });

  it('treats empty values as unset', () => {
    const env = loadEnv({ DATABASE_URL: '', ADMIN_EMAIL: '' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.ADMIN_EMAIL).toBeUndefined();
  });

  it('lists every invalid variable in one error', () => {
    expect(() =>
      loadEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }),
    ).toThrowError(/PORT[\s\S]*DATABASE_URL: must be a postgres:\/\/ URL[\s\S]*LOG_LEVEL/);
  });

  it('reads the health-check target lists, empty by default', () => {
    expect(loadEnv({})).toMatchObject({
      CHECK_TARGETS_ALLOW: [],
      CHECK_TARGETS_DENY: [],
      CHECK_RUN_RATE_LIMIT: 30,
    });
    const env = loadEnv({
      CHECK_TARGETS_ALLOW: '127.0.0.0/8, ::1,status.internal,',
      CHECK_TARGETS_DENY: '10.9.0.0/16,*.legacy.internal',
    });
    expect(env.CHECK_TARGETS_ALLOW).toEqual(['127.0.0.0/8', '::1', 'status.internal']);
    expect(env.CHECK_TARGETS_DENY).toEqual(['10.9.0.0/16', '*.legacy.internal']);
  });

  it('fails start-up naming each invalid target entry', () => {
    expect(() =>
      loadEnv({
        CHECK_TARGETS_ALLOW: '10.0.0.0/8,10.0.0.0/40',
        CHECK_TARGETS_DENY: 'a b, 999.1.1.1',
      }),
    ).toThrowError(
      /CHECK_TARGETS_ALLOW: not an address, range or host name: 10\.0\.0\.0\/40\n\s+CHECK_TARGETS_DENY: not an address, range or host name: a b, 999\.1\.1\.1/,
    );
  });
});
