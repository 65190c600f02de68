import { afterAll, beforeAll } from 'vitest';
import { createAdminKey } from './admin-key.ts';
import { createTestServer, type TestServer, type TestServerOptions } from './test-server.ts';

/** One test server for the calling test file, made before its tests and closed after them. */
export function serverPerFile(options: TestServerOptions = {}) {
  const fixture = {} as { server: TestServer };
  beforeAll(async () => {
    fixture.server = await createTestServer(options);
  });
  afterAll(() => fixture.server.close());
  return fixture;
}

/** The whole server (every plugin) for this file, and the key of an application holding admin. */
export function adminServerPerFile() {
  const fixture = {} as { server: TestServer; key: string };
  beforeAll(async () => {
    fixture.server = await createTestServer();
    fixture.key = await createAdminKey(fixture.server);
  });
  afterAll(() => fixture.server.close());
  return fixture;
}

/** One test server for this file and an administrator's signed-in session on it (headers). */
export function adminSessionPerFile(options: TestServerOptions = {}) {
  const fixture = {} as { server: TestServer; session: Record<string, string> };
  beforeAll(async () => {
    fixture.server = await createTestServer(options);
    fixture.session = await fixture.server.adminSession();
  });
  afterAll(() => fixture.server.close());
  return fixture;
}

/**
 * One test server for this file (or the calling `describe`), also listening on a loopback port for
 * real HTTP clients.
 */
export function listeningServerPerFile(options: TestServerOptions = {}) {
  const fixture = {} as { server: TestServer; url: string };
  let listening: { url: string; close(): Promise<void> } | undefined;
  beforeAll(async () => {
    fixture.server = await createTestServer(options);
    listening = await fixture.server.listen();
    fixture.url = listening.url;
  });
  afterAll(async () => {
    await listening?.close();
    await fixture.server?.close();
  });
  return fixture;
}
