import { createServer } from 'node:net';
import { loopbackEgress } from '@checkline/notification-node/testing';
import { createTestServer, testAdmin, type TestServer } from '@checkline/server/test-server';
import { distFolder } from '../../scripts/build.ts';

export { testAdmin };

/** A port free right now on loopback: the server's address must be known before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface UiServer {
  url: string;
  server: TestServer;
  /** Session headers (cookie and Origin) of a person, for API calls from the test itself. */
  sessionOf(email: string, password: string): Promise<Record<string, string>>;
  /** One call on the keyed surface with the given headers; throws unless it answers 200. */
  call<T = unknown>(
    pluginId: string,
    procedure: string,
    input: object,
    headers: Record<string, string>,
  ): Promise<T>;
  close(): Promise<void>;
}

/**
 * The real server (every plugin, a fresh database: PGlite, or PostgreSQL with DATABASE_URL) on a
 * real loopback port, serving the UI's production build, with `BASE_URL` set to that address so
 * the browser's Origin and the error-page redirects are its own.
 */
export async function startUiServer(): Promise<UiServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Every service the tests play (SMTP, webhooks) listens on loopback, which the channels' egress
  // guard refuses by default: the e-mail channel gets a guard that lets loopback through.
  const server = await createTestServer({
    baseUrl: url,
    webDistDir: distFolder,
    smtp: { egress: loopbackEgress() },
  });
  const listening = await server.listen(port);
  const sessionOf = async (email: string, password: string) => {
    const session = await server.sessionOf(email, password);
    return { cookie: session.cookie, origin: session.origin };
  };
  return {
    url,
    server,
    sessionOf,
    async call(pluginId, procedure, input, headers) {
      const response = await fetch(`${url}/api/${pluginId}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ [procedure]: input }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) {
        throw new Error(`${pluginId}.${procedure}: ${response.status} ${JSON.stringify(body)}`);
      }
      return body[procedure] as never;
    },
    async close() {
      await listening.close();
      await server.close();
    },
  };
}
