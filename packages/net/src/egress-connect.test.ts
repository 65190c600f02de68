import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgress } from './egress.ts';
import { TargetRefusedError } from './target-policy.ts';
import { fixedResolver } from './testing/resolver.ts';
import { recordClientSockets } from './testing/sockets.ts';

/** A TCP server on 127.0.0.1 that greets like an SMTP server and counts connections. */
let accepted = 0;
const server = createServer((socket) => {
  accepted += 1;
  socket.end('220 banner.internal ESMTP secret-service-banner\r\n');
});
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const firstLine = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('data', (data) => resolve(String(data))));

describe('egress guard for plain sockets', () => {
  describe('works', () => {
    it('connects to a host the policy allows, at the address it judged', async () => {
      const egress = createEgress({
        allowPrivate: true,
        resolve: fixedResolver({ 'relay.invalid': ['127.0.0.1'] }),
      });
      const socket = await egress.connect('relay.invalid', port);
      try {
        expect(socket.remoteAddress).toBe('127.0.0.1');
        expect(await firstLine(socket)).toContain('220 banner.internal');
      } finally {
        socket.destroy();
      }
      await expect(egress.vetHost('relay.invalid')).resolves.toBeUndefined();
    });
  });

  describe('refuses', () => {
    const resolve = fixedResolver({
      'loop.invalid': ['127.0.0.1'],
      'imds.invalid': ['169.254.169.254'],
      'office.invalid': ['10.0.0.1'],
    });
    const egress = createEgress({ resolve });
    const relaxed = createEgress({ allowPrivate: true, resolve });

    it.each([
      [egress, '169.254.169.254', '169.254.169.254 is a cloud metadata address'],
      [egress, 'metadata.google.internal', 'metadata.google.internal is a cloud metadata host'],
      [egress, '10.0.0.1', '10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can allow it)'],
      [egress, '127.0.0.1', '127.0.0.1 is a loopback address'],
      [egress, '0.0.0.0', '0.0.0.0 is an unspecified address'],
      [egress, '::1', '::1 is a loopback address'],
      [egress, 'loop.invalid', 'loop.invalid resolves to 127.0.0.1, which is a loopback'],
      [egress, 'office.invalid', 'office.invalid resolves to 10.0.0.1, which is a private'],
      [relaxed, 'imds.invalid', 'imds.invalid resolves to 169.254.169.254, which is a cloud'],
      [relaxed, '::ffff:0:169.254.169.254', 'reaches 169.254.169.254, which is a cloud metadata'],
    ])('%#: %s, before any socket is made', async (guard, host, message) => {
      const sockets = recordClientSockets();
      const before = accepted;
      try {
        const refusal = await guard.connect(host, port).catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(TargetRefusedError);
        expect((refusal as Error).message).toContain(message);
        await expect(guard.vetHost(host)).rejects.toThrow(message);
        expect(sockets.created()).toBe(0);
        expect(accepted).toBe(before);
      } finally {
        sockets.stop();
      }
    });
  });

  describe('errors', () => {
    it('gives up after its timeout when the name never resolves', async () => {
      const egress = createEgress({ resolve: () => new Promise(() => undefined) });
      await expect(egress.connect('slow.invalid', port, { timeoutMs: 100 })).rejects.toMatchObject({
        code: 'ETIMEDOUT',
      });
    });

    it('passes a refused connection on as it is', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const egress = createEgress({ allowPrivate: true });
      await expect(egress.connect('127.0.0.1', closedPort)).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
    });
  });
});
