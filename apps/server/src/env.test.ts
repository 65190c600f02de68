import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { loadEnv, repositoryRoot } from './env.ts';

describe('loadEnv', () => {
  it('applies the documented defaults', () => {
    expect(loadEnv({})).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      BASE_URL: 'http://localhost:3000',
      FRONTEND_URL: 'http://localhost:3000',
      DATA_DIR: join(repositoryRoot, 'data'),
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
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
      HEARTBEAT_RATE_LIMIT: 60,
    });
    const env = loadEnv({
      CHECK_TARGETS_ALLOW: '127.0.0.0/8, ::1,status.internal,',
      CHECK_TARGETS_DENY: '10.9.0.0/16,*.legacy.internal',
    });
    expect(env.CHECK_TARGETS_ALLOW).toEqual(['127.0.0.0/8', '::1', 'status.internal']);
    expect(env.CHECK_TARGETS_DENY).toEqual(['10.9.0.0/16', '*.legacy.internal']);
  });

  it('keeps webhooks off private addresses unless WEBHOOK_ALLOW_PRIVATE is true', () => {
    expect(loadEnv({}).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(loadEnv({ WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(loadEnv({ WEBHOOK_ALLOW_PRIVATE: 'false' }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(() => loadEnv({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrowError(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('reads the delivery retry steps in seconds: 30 s, 2 min, 10 min, 1 h and 6 h by default', () => {
    expect(loadEnv({}).DELIVERY_RETRY_DELAYS).toEqual([
      30_000, 120_000, 600_000, 3_600_000, 21_600_000,
    ]);
    expect(loadEnv({ DELIVERY_RETRY_DELAYS: '1, 2.5,60' }).DELIVERY_RETRY_DELAYS).toEqual([
      1_000, 2_500, 60_000,
    ]);
    expect(() => loadEnv({ DELIVERY_RETRY_DELAYS: '30,,60' })).toThrowError(
      /DELIVERY_RETRY_DELAYS/,
    );
    expect(() => loadEnv({ DELIVERY_RETRY_DELAYS: '30,-1' })).toThrowError(/DELIVERY_RETRY_DELAYS/);
  });

  it('reads the delivery lease and send timeout, a minute and 30 s by default, the lease above the timeout', () => {
    expect(loadEnv({})).toMatchObject({
      DELIVERY_LEASE_MS: 60_000,
      DELIVERY_SEND_TIMEOUT_MS: 30_000,
    });
    expect(loadEnv({ DELIVERY_LEASE_MS: '5000', DELIVERY_SEND_TIMEOUT_MS: '3000' })).toMatchObject({
      DELIVERY_LEASE_MS: 5_000,
      DELIVERY_SEND_TIMEOUT_MS: 3_000,
    });
    expect(() => loadEnv({ DELIVERY_LEASE_MS: '5000' })).toThrowError(/DELIVERY_LEASE_MS/);
  });

  it('reads the scheduler settings: 256 runs in flight and 7 days of results by default', () => {
    expect(loadEnv({})).toMatchObject({ CHECK_CONCURRENCY: 256, CHECK_RESULT_RETENTION_DAYS: 7 });
    expect(loadEnv({ CHECK_CONCURRENCY: '1000', CHECK_RESULT_RETENTION_DAYS: '30' })).toMatchObject(
      { CHECK_CONCURRENCY: 1_000, CHECK_RESULT_RETENTION_DAYS: 30 },
    );
    expect(() =>
      loadEnv({ CHECK_CONCURRENCY: '0', CHECK_RESULT_RETENTION_DAYS: 'week' }),
    ).toThrowError(/CHECK_CONCURRENCY[\s\S]*CHECK_RESULT_RETENTION_DAYS/);
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

  it('takes a relative DATA_DIR from the repository root, whatever the working folder', () => {
    expect(repositoryRoot).toBe(join(import.meta.dirname, '..', '..', '..') + '/');
    expect(loadEnv({ DATA_DIR: 'var/pglite' }).DATA_DIR).toBe(join(repositoryRoot, 'var/pglite'));
    expect(loadEnv({ DATA_DIR: '/srv/checkline' }).DATA_DIR).toBe('/srv/checkline');
    expect(loadEnv({ DATA_DIR: 'memory://' }).DATA_DIR).toBe('memory://');
  });

  it.each(['BASE_URL', 'FRONTEND_URL'])('accepts only an absolute http(s) URL in %s', (name) => {
    for (const value of ['localhost:3000', '/status', 'ftp://example.com', 'javascript:alert(1)']) {
      expect(() => loadEnv({ [name]: value })).toThrowError(
        new RegExp(`${name}: must be an absolute http\\(s\\) URL`),
      );
    }
    for (const value of ['http://localhost:3000', 'https://status.example.com/app']) {
      expect(loadEnv({ [name]: value })[name as 'BASE_URL' | 'FRONTEND_URL']).toBe(value);
    }
  });

  describe('encryption keys', () => {
    const key = randomBytes(32).toString('base64');
    const old = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];

    it('reads ENCRYPTION_KEY and ENCRYPTION_KEYS_OLD as 32-byte keys, none by default', () => {
      const env = loadEnv({ ENCRYPTION_KEY: key, ENCRYPTION_KEYS_OLD: ` ${old[0]}, ${old[1]},` });
      expect(env.ENCRYPTION_KEY?.toString('base64')).toBe(key);
      expect(env.ENCRYPTION_KEYS_OLD.map((entry) => entry.toString('base64'))).toEqual(old);
      expect(loadEnv({}).ENCRYPTION_KEY).toBeUndefined();
      expect(loadEnv({}).ENCRYPTION_KEYS_OLD).toEqual([]);
    });

    it('refuses a key of the wrong length without repeating it', () => {
      const short = randomBytes(16).toString('base64');
      const load = () => loadEnv({ ENCRYPTION_KEY: short, ENCRYPTION_KEYS_OLD: `${key},nonsense` });
      expect(load).toThrowError(
        /ENCRYPTION_KEY: the key must be 32 bytes in base64 \(got 16 bytes\)/,
      );
      expect(load).toThrowError(/ENCRYPTION_KEYS_OLD: the key must be 32 bytes/);
      expect(load).not.toThrowError(short);
    });

    it('requires ENCRYPTION_KEY when NODE_ENV=production', () => {
      expect(() => loadEnv({ NODE_ENV: 'production' })).toThrowError(
        /ENCRYPTION_KEY: required when NODE_ENV=production/,
      );
      expect(loadEnv({ NODE_ENV: 'production', ENCRYPTION_KEY: key }).ENCRYPTION_KEY).toHaveLength(
        32,
      );
    });
  });
  describe('OpenID Connect sign-in', () => {
    const oidc = {
      OIDC_ISSUER: 'https://id.example.com/realms/ops',
      OIDC_CLIENT_ID: 'checkline',
      OIDC_CLIENT_SECRET: 'never-in-messages',
    };

    it('is off without settings, and defaults the name and scopes when configured', () => {
      expect(loadEnv({}).OIDC_ISSUER).toBeUndefined();
      expect(loadEnv(oidc)).toMatchObject({
        ...oidc,
        OIDC_NAME: 'oidc',
        OIDC_SCOPES: ['openid', 'email', 'profile'],
        OIDC_ALLOW_INSECURE_ISSUER: false,
      });
      expect(
        loadEnv({ ...oidc, OIDC_NAME: 'keycloak', OIDC_SCOPES: 'openid email' }),
      ).toMatchObject({ OIDC_NAME: 'keycloak', OIDC_SCOPES: ['openid', 'email'] });
    });

    it('names each missing setting when only some are given, never echoing the secret', () => {
      const attempt = () => loadEnv({ OIDC_CLIENT_SECRET: oidc.OIDC_CLIENT_SECRET });
      expect(attempt).toThrowError(
        /OIDC_ISSUER: required with the other OIDC_ settings\n\s+OIDC_CLIENT_ID: required/,
      );
      expect(attempt).not.toThrowError(/never-in-messages/);
    });

    it('refuses a plain-http issuer off loopback unless explicitly allowed, and a bad name', () => {
      expect(() => loadEnv({ ...oidc, OIDC_ISSUER: 'http://id.example.com' })).toThrowError(
        /OIDC_ISSUER: must be https/,
      );
      expect(loadEnv({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:8080' }).OIDC_ISSUER).toBe(
        'http://127.0.0.1:8080',
      );
      expect(
        loadEnv({ ...oidc, OIDC_ISSUER: 'http://id.internal', OIDC_ALLOW_INSECURE_ISSUER: 'true' })
          .OIDC_ALLOW_INSECURE_ISSUER,
      ).toBe(true);
      expect(() => loadEnv({ ...oidc, OIDC_NAME: 'custom' })).toThrowError(/OIDC_NAME/);
      expect(() => loadEnv({ ...oidc, OIDC_NAME: 'Key Cloak' })).toThrowError(/OIDC_NAME/);
    });
  });
});
