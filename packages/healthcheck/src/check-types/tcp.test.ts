import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTargetPolicy } from '@checkline/net';
import { fixedResolver, recordClientSockets } from '@checkline/net/testing';
import { loopbackAllowed } from '../testing/harness.ts';
import { closedPort, startTcpTarget } from '../testing/targets.ts';
import { TcpCheckConfigSchema, tcpCheckType } from './tcp.ts';

let target: Awaited<ReturnType<typeof startTcpTarget>>;

beforeAll(async () => {
  target = await startTcpTarget();
});
afterAll(() => target.close());

const loopback = createTargetPolicy(loopbackAllowed);
const options = (timeoutMs = 2_000, targets = loopback) => ({
  signal: new AbortController().signal,
  timeoutMs,
  targets,
});

describe('tcp check type', () => {
  describe('works', () => {
    it('passes when the port accepts a connection', async () => {
      const outcome = await tcpCheckType.run({ host: '127.0.0.1', port: target.port }, options());
      expect(outcome).toMatchObject({
        status: 'pass',
        message: `Connected to 127.0.0.1:${target.port}`,
      });
      expect(target.accepted()).toBeGreaterThan(0);
    });

    it('fails with ECONNREFUSED on a closed port', async () => {
      const port = await closedPort();
      const outcome = await tcpCheckType.run({ host: '127.0.0.1', port }, options());
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toMatch(/^ECONNREFUSED/);
    });

    it('gives up on an aborted signal', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(
        tcpCheckType.run(
          { host: '127.0.0.1', port: target.port },
          { signal: controller.signal, timeoutMs: 1_000, targets: loopback },
        ),
      ).resolves.toMatchObject({ status: 'fail', message: 'Cancelled' });
    });
  });

  describe('keeps to the target policy', () => {
    it('refuses loopback by default and names resolving to refused addresses, never dialling', async () => {
      const resolve = fixedResolver({
        'imds.invalid': ['169.254.169.254'],
        'local.invalid': ['127.0.0.1'],
      });
      const strict = createTargetPolicy({ resolve });
      const sockets = recordClientSockets();
      const before = target.accepted();
      try {
        for (const host of [
          '127.0.0.1',
          'local.invalid',
          'localhost',
          'imds.invalid',
          '::ffff:7f00:1',
        ]) {
          await expect(
            tcpCheckType.run({ host, port: target.port }, options(2_000, strict)),
          ).resolves.toMatchObject({
            status: 'fail',
            message: expect.stringMatching(/^Target refused/),
          });
        }
        expect(sockets.created()).toBe(0);
        expect(target.accepted()).toBe(before);
      } finally {
        sockets.stop();
      }
    });

    it('connects to the address the policy checked', async () => {
      const resolve = fixedResolver({ 'db.invalid': ['127.0.0.1'] });
      const policy = createTargetPolicy({ allow: ['127.0.0.1'], resolve });
      const before = target.accepted();
      await expect(
        tcpCheckType.run({ host: 'db.invalid', port: target.port }, options(2_000, policy)),
      ).resolves.toMatchObject({
        status: 'pass',
        message: `Connected to db.invalid:${target.port}`,
      });
      expect(resolve.calls).toEqual(['db.invalid']);
      await vi.waitFor(() => expect(target.accepted()).toBe(before + 1));
    });
  });

  describe('rejects bad input', () => {
    it('refuses ports out of range and hosts that are no host names', () => {
      for (const config of [
        { host: '127.0.0.1', port: 0 },
        { host: '127.0.0.1', port: 65_536 },
        { host: '127.0.0.1', port: 80.5 },
        { host: 'two words', port: 80 },
        { host: '', port: 80 },
        { host: '127.0.0.1' },
      ]) {
        expect(TcpCheckConfigSchema.safeParse(config).success, JSON.stringify(config)).toBe(false);
      }
      expect(TcpCheckConfigSchema.safeParse({ host: 'db.internal', port: 5432 }).success).toBe(
        true,
      );
    });
  });
});
