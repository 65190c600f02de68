import { describe, expect, it } from 'vitest';
import { isLoopbackHost, resolveOidcSettings } from './settings.ts';

const client = { clientId: 'checkline', clientSecret: 's3cret' };

describe('resolveOidcSettings', () => {
  it('defaults the name to oidc and always asks the openid scope', () => {
    const settings = resolveOidcSettings({ issuer: 'https://id.example.com', ...client });
    expect(settings).toMatchObject({
      name: 'oidc',
      displayName: 'OpenID Connect',
      scopes: 'openid email profile',
      insecureRequests: false,
    });
    const custom = resolveOidcSettings({
      issuer: 'https://id.example.com/realms/ops',
      ...client,
      name: 'keycloak',
      scopes: ['email'],
    });
    expect(custom).toMatchObject({
      name: 'keycloak',
      displayName: 'keycloak',
      scopes: 'openid email',
    });
  });

  it('accepts plain http only on loopback, or when explicitly allowed', () => {
    for (const issuer of ['http://127.0.0.1:8080', 'http://localhost:9000', 'http://[::1]:8080']) {
      expect(resolveOidcSettings({ issuer, ...client }).insecureRequests).toBe(true);
    }
    expect(() => resolveOidcSettings({ issuer: 'http://id.example.com', ...client })).toThrow(
      'OIDC issuer: must be https (plain http only on loopback)',
    );
    expect(
      resolveOidcSettings({ issuer: 'http://id.internal', ...client, allowInsecureIssuer: true })
        .insecureRequests,
    ).toBe(true);
    expect(() => resolveOidcSettings({ issuer: 'ftp://id.example.com', ...client })).toThrow(
      'must be an http(s) URL',
    );
  });

  it('refuses names that are not path segments or that the auth routes use', () => {
    for (const name of ['custom', 'logout', 'Acme', 'a/b', '']) {
      expect(() =>
        resolveOidcSettings({ issuer: 'https://id.example.com', ...client, name }),
      ).toThrow(/OIDC name/);
    }
  });

  it('requires the client id and secret', () => {
    expect(() =>
      resolveOidcSettings({ issuer: 'https://id.example.com', clientId: '', clientSecret: 'x' }),
    ).toThrow('OIDC client id: required');
    expect(() =>
      resolveOidcSettings({ issuer: 'https://id.example.com', clientId: 'x', clientSecret: '' }),
    ).toThrow('OIDC client secret: required');
  });
});

describe('isLoopbackHost', () => {
  it('knows loopback from other hosts', () => {
    expect(['127.0.0.1', '127.10.0.2', 'localhost', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(
      ['10.0.0.1', '128.0.0.1', 'example.com', '[::2]', '127.example.com'].map(isLoopbackHost),
    ).toEqual([false, false, false, false, false]);
  });
});
