import { describe, expect, it } from 'vitest';
import { serverPerFile } from './support/server-per-file.ts';

/**
 * Issue 19 item 9: a credential carried in a path never reaches the log, whatever the method,
 * whatever the spelling, and whether or not a route answers it.
 */
const fixture = serverPerFile();

const methods = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** Secrets written the way each route's tokens are: distinctive parts the log must not hold. */
const heartbeatSecret = 'hb_0d6c2f9e-1111-4222-8333-944445555666_Zq8SecretHeartbeat';
const macBase64 = 'Kx9+Mac/SecretPart=='; // the MAC in standard base64, `+`, `/` and `=`
const unsubscribeSecret = `eyJTecretPayload.${macBase64}`;

interface Spelling {
  name: string;
  path: (prefix: string, token: string) => string;
}

const spellings: Spelling[] = [
  { name: 'as routed', path: (prefix, token) => `${prefix}/${token}` },
  { name: 'trailing slash', path: (prefix, token) => `${prefix}/${token}/` },
  { name: 'leading //', path: (prefix, token) => `/${prefix}/${token}` },
  {
    name: 'slashes doubled inside',
    path: (prefix, token) => `${prefix.replaceAll('/', '//')}//${token}`,
  },
  { name: '%2F before the token', path: (prefix, token) => `${prefix}%2F${token}` },
  {
    name: '%2f inside the prefix',
    path: (prefix, token) => `/${prefix.slice(1).replaceAll('/', '%2f')}/${token}`,
  },
  { name: 'prefix in upper case', path: (prefix, token) => `${prefix.toUpperCase()}/${token}` },
  {
    name: 'a letter of the prefix encoded',
    path: (prefix, token) => `${prefix.replace('a', '%61')}/${token}`,
  },
  {
    name: 'a letter encoded twice',
    path: (prefix, token) => `${prefix.replace('a', '%2561')}/${token}`,
  },
  { name: 'token url-encoded', path: (prefix, token) => `${prefix}/${encodeURIComponent(token)}` },
  {
    name: 'token encoded twice',
    path: (prefix, token) => `${prefix}/${encodeURIComponent(encodeURIComponent(token))}`,
  },
  { name: 'a dot segment', path: (prefix, token) => `${prefix}/./${token}` },
  { name: 'a dot-dot segment', path: (prefix, token) => `${prefix}/x/../${token}` },
];

const routes = [
  { name: 'heartbeat', prefix: '/api/healthcheck/heartbeat', token: heartbeatSecret },
  { name: 'unsubscribe', prefix: '/api/notification/unsubscribe', token: unsubscribeSecret },
];

/** Every form in which a piece of the token could be written down. */
function tokenForms(token: string): string[] {
  const pieces = token.split(/[./+=_-]/).filter((piece) => piece.length >= 6);
  return [...pieces, token, encodeURIComponent(token)];
}

const cases = routes.flatMap((route) =>
  methods.flatMap((method) =>
    spellings.map((spelling) => ({
      ...route,
      method,
      spelling: spelling.name,
      path: spelling.path(route.prefix, route.token),
    })),
  ),
);

describe('tokens in paths and the access log', () => {
  it.each(cases)('$name, $method, $spelling: the log never holds the token', async (c) => {
    const response = await fixture.server.request(`http://localhost${c.path}`, {
      method: c.method,
    });
    const requestId = response.headers.get('x-request-id')!;
    const lines = fixture.server.logLines.filter((line) => line.includes(requestId));
    const access = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'request');
    expect(access).toMatchObject({ method: c.method, status: response.status });
    for (const form of tokenForms(c.token)) {
      for (const line of lines) expect(line).not.toContain(form);
    }
  });

  it('keeps the rest of a path readable', async () => {
    const response = await fixture.server.request('/api/healthcheck/heartbeat');
    const requestId = response.headers.get('x-request-id')!;
    const access = fixture.server.logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'request' && line.requestId === requestId);
    expect(access).toMatchObject({ path: '/api/healthcheck/heartbeat' });
  });
});
