import { createEgress } from '@checkline/net';
import { recordConnectAttempts } from '@checkline/net/testing';
import { describe, expect, it } from 'vitest';
import type { StrategyOAuth } from '@checkline/notification-node';
import {
  exchangeCode,
  OAuthProviderError,
  refreshAtProvider,
  revokeAtProvider,
} from './provider.ts';

const PORT = 9;

/** An OAuth definition whose endpoints are wherever the administrator's config says. */
const oauthAt = (base: string): StrategyOAuth<unknown> => ({
  clientId: () => 'client',
  clientSecret: () => 'client-secret-never-shown',
  scopes: ['chat:write'],
  authorizationUrl: () => `${base}/authorize`,
  tokenUrl: () => `${base}/token`,
  revocationUrl: () => `${base}/revoke`,
  extractExternalId: () => 'U1',
});

describe('calls to OAuth providers', () => {
  describe('refuse', () => {
    const egress = createEgress();

    it.each([
      `http://169.254.169.254:${PORT}`,
      `http://metadata.google.internal:${PORT}`,
      `http://127.0.0.1:${PORT}`,
      `http://10.0.0.1:${PORT}`,
      `http://[::ffff:0:127.0.0.1]:${PORT}`,
    ])('an endpoint at %s, before any connection', async (base) => {
      const oauth = oauthAt(base);
      const connects = recordConnectAttempts();
      try {
        const calls = [
          exchangeCode(
            egress,
            oauth,
            {},
            { code: 'c', redirectUri: 'https://x/cb', codeVerifier: 'v' },
          ),
          refreshAtProvider(egress, oauth, {}, 'refresh-token'),
          revokeAtProvider(egress, oauth, {}, { accessToken: 'a', refreshToken: 'r' }),
        ];
        for (const call of calls) {
          const error = await call.catch((thrown: unknown) => thrown);
          expect(error).toBeInstanceOf(OAuthProviderError);
          expect((error as Error).message).toContain('Target refused');
          expect((error as Error).message).not.toContain('client-secret-never-shown');
        }
        expect(connects.toPort(PORT)).toEqual([]);
      } finally {
        connects.stop();
      }
    });
  });
});
