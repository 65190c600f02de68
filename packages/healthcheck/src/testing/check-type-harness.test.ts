import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHealthCheckType } from '../check-kit.ts';
import { tcpCheckType } from '../check-types/tcp.ts';
import { checkTypeHarness, closedPort, startTcpTarget } from './index.ts';

let target: Awaited<ReturnType<typeof startTcpTarget>>;
beforeAll(async () => {
  target = await startTcpTarget();
});
afterAll(() => target.close());

const tcp = checkTypeHarness(tcpCheckType);

describe('the check-type test kit', () => {
  it('qualifies the type under the test plugin, as the server would', () => {
    expect(tcp.qualifiedId).toBe('test.tcp');
  });

  it('saves a config as the API does and runs it as the scheduler does', async () => {
    const config = await tcp.save({ host: '127.0.0.1', port: target.port });
    const before = target.accepted();
    const outcome = await tcp.run(config);
    expect(outcome).toMatchObject({
      status: 'pass',
      message: `Connected to 127.0.0.1:${target.port}`,
    });
    expect(target.accepted()).toBe(before + 1);
  });

  it('refuses an unknown key on save, with the issue under config', async () => {
    await expect(tcp.save({ host: '127.0.0.1', port: 1, colour: 'red' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      data: { issues: [{ path: 'config.colour', message: 'Unknown key "colour"' }] },
    });
  });

  it('refuses a host beyond loopback on save and fails its run without connecting', async () => {
    await expect(tcp.save({ host: 'example.com', port: 443 })).rejects.toMatchObject({
      data: { issues: [{ path: 'config.host' }] },
    });
    const outcome = await tcp.run({ host: 'example.com', port: 443 });
    expect(outcome).toMatchObject({ status: 'fail' });
    expect(outcome.message).toMatch(/tests reach only loopback, not example\.com/);
  });

  it('turns a refused connection into a fail outcome', async () => {
    const port = await closedPort();
    const outcome = await tcp.run({ host: '127.0.0.1', port });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/ECONNREFUSED/);
  });

  it('turns a type that throws into a fail outcome, as the scheduler does', async () => {
    const throwing = checkTypeHarness(
      defineHealthCheckType({
        id: 'throws',
        displayName: 'Throws',
        config: z.object({}),
        run: () => Promise.reject(new Error('broken type')),
      }),
    );
    expect(await throwing.run({})).toMatchObject({ status: 'fail', message: 'broken type' });
  });

  it('fails a run cancelled by its signal with "Cancelled"', async () => {
    const waiting = checkTypeHarness(
      defineHealthCheckType({
        id: 'waits',
        displayName: 'Waits',
        config: z.object({}),
        // Answers only when its signal aborts, as a type waiting on a silent target does.
        run: (_config, { signal }) =>
          new Promise<never>((_resolve, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          }),
      }),
    );
    const cancel = new AbortController();
    const outcome = waiting.run({}, { cancel: cancel.signal });
    cancel.abort(new Error('shutting down'));
    expect(await outcome).toMatchObject({ status: 'fail', message: 'Cancelled' });
  });
});
