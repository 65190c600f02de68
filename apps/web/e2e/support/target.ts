import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UiServer } from './ui-server.ts';

/** A loopback HTTP service for checks to probe; `url` is its /health address. */
export interface Target {
  url: string;
  close(): Promise<void>;
}

export async function startTarget(answer: RequestListener): Promise<Target> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An hourly http check of `systemId` against `url`, made through the API; answers its id. */
export async function createHttpCheck(
  ui: UiServer,
  headers: Record<string, string>,
  check: { systemId: string; url: string; name: string },
): Promise<string> {
  const { id } = await ui.call<{ id: string }>(
    'healthcheck',
    'createHealthCheck',
    {
      systemId: check.systemId,
      name: check.name,
      type: 'healthcheck.http',
      config: { url: check.url },
      intervalSeconds: 3_600,
      timeoutMs: 5_000,
    },
    headers,
  );
  return id;
}
