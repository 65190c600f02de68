import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startTcpTarget } from '../testing/targets.ts';
import { TcpCheckConfigSchema, tcpCheckType } from './tcp.ts';

let target: Awaited<ReturnType<typeof startTcpTarget>>;

beforeAll(async () => {
  target = await startTcpTarget();
});
afterAll(() => target.close());

const options = (timeoutMs = 2_000) => ({ signal: new AbortController().signal, timeoutMs });

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
          { signal: controller.signal, timeoutMs: 1_000 },
        ),
      ).resolves.toMatchObject({ status: 'fail', message: 'Cancelled' });
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
