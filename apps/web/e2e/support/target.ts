import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

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
