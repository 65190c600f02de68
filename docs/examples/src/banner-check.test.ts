import { checkTypeHarness, closedPort } from '@checkline/healthcheck/testing';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerCheckType } from './banner-check.ts';

let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  // A loopback service that greets like an SSH server.
  server = createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined); // the check closes as soon as it has read the line
    socket.end('SSH-2.0-OpenSSH_9.6\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// Saved and run through the server's own code; the targets policy reaches only loopback.
const banner = checkTypeHarness(bannerCheckType);

describe('the plugin guide banner check type', () => {
  it('passes when the greeting starts as expected', async () => {
    const config = await banner.save({ host: '127.0.0.1', port, expect: 'SSH-2.0' });
    const outcome = await banner.run(config);
    expect(outcome).toMatchObject({ status: 'pass', message: 'Greeted with SSH-2.0-OpenSSH_9.6' });
  });

  it('fails on another greeting', async () => {
    const outcome = await banner.run({ host: '127.0.0.1', port, expect: '220 ' });
    expect(outcome).toMatchObject({
      status: 'fail',
      message: 'Unexpected greeting SSH-2.0-OpenSSH_9.6',
    });
  });

  it('fails when nothing listens', async () => {
    const outcome = await banner.run({ host: '127.0.0.1', port: await closedPort(), expect: 'x' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses a target beyond the policy on save, and fails its run without connecting', async () => {
    const before = connections;
    const elsewhere = { host: 'example.com', port, expect: 'SSH-2.0' };
    await expect(banner.save(elsewhere)).rejects.toMatchObject({
      data: { issues: [{ path: 'config.host' }] },
    });
    const outcome = await banner.run(elsewhere);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/Target refused/);
    expect(connections).toBe(before);
  });
});
