import type { Logger } from '@checkline/core';
import { TargetRefusedError } from '@checkline/net';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizationCodeGrant } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcProvider } from './provider.ts';
import { resolveOidcSettings } from './settings.ts';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

/** Connections a server accepted, counted as they open (before any request is read). */
async function listen(server: Server, host: string) {
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** An issuer on 127.0.0.1 whose discovery document names the token endpoint it is told to. */
async function startIssuer() {
  let tokenEndpoint = '';
  let tokenRequests = 0;
  const server = createServer((request, response) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url === '/.well-known/openid-configuration') {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: tokenEndpoint.replace('{issuer}', base),
          jwks_uri: `${base}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
      return;
    }
    if (request.url === '/token') tokenRequests += 1;
    response.statusCode = 400;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ error: 'invalid_grant' }));
  });
  const listening = await listen(server, '127.0.0.1');
  return {
    ...listening,
    url: `http://127.0.0.1:${listening.port}`,
    pointTokenEndpointAt: (url: string) => (tokenEndpoint = url),
    tokenRequests: () => tokenRequests,
  };
}

let issuer: Awaited<ReturnType<typeof startIssuer>>;
/** Another loopback address than the issuer's: reachable, but not the operator's choice. */
let elsewhere: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  issuer = await startIssuer();
  elsewhere = await listen(
    createServer((_request, response) => response.end('{}')),
    '127.0.0.2',
  );
});
afterAll(async () => {
  await issuer?.close();
  await elsewhere?.close();
});

/** Discovers the issuer afresh and exchanges a code at whatever token endpoint it names. */
async function exchangeCode() {
  const provider = new OidcProvider(
    resolveOidcSettings({ issuer: issuer.url, clientId: 'checkline', clientSecret: 'secret' }),
    () => silent as unknown as Logger,
  );
  const configuration = await provider.configuration();
  return authorizationCodeGrant(
    configuration,
    new URL('http://localhost:3000/callback?code=the-code&state=s'),
    { expectedState: 's' },
  );
}

/** The refusal somewhere in an error's causes, or undefined. */
function refusalIn(error: unknown): TargetRefusedError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof TargetRefusedError) return current;
  }
  return undefined;
}

describe('OIDC provider calls go through the egress guard', () => {
  it.each([
    ['a cloud metadata address', 'http://169.254.169.254/token', '169.254.169.254'],
    [
      'a metadata address spelled as mapped IPv6',
      'http://[::ffff:a9fe:a9fe]/token',
      '169.254.169.254',
    ],
    ['a private address', 'http://10.0.0.7/token', '10.0.0.7'],
    ['a loopback address that is not the issuer', 'http://127.0.0.2:{port}/token', '127.0.0.2'],
  ])('refuses a token endpoint at %s without connecting to it', async (_what, endpoint, named) => {
    issuer.pointTokenEndpointAt(endpoint.replace('{port}', String(elsewhere.port)));
    const error = await exchangeCode().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    const refusal = refusalIn(error);
    expect(refusal?.message).toContain(named);
    expect(elsewhere.connections()).toBe(0);
  });

  it("reaches a token endpoint on the issuer's own host, which the operator chose", async () => {
    issuer.pointTokenEndpointAt('{issuer}/token');
    const before = issuer.tokenRequests();
    const error = await exchangeCode().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(refusalIn(error)).toBeUndefined();
    expect(issuer.tokenRequests()).toBe(before + 1);
  });
});
