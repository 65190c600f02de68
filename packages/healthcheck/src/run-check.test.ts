import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HealthCheckType } from './check-type.ts';
import { createHealthCheckTypeRegistry, defineHealthCheckType } from './check-type.ts';
import { runCheck } from './run-check.ts';
import { createTargetPolicy } from '@checkline/net';
import { fixedResolver } from '@checkline/net/testing';

const registry = createHealthCheckTypeRegistry();
const targets = createTargetPolicy();
const register = (type: HealthCheckType<{ value: number }>) => registry.register('probe', type);
const config = z.object({ value: z.number().default(1) });

register(
  defineHealthCheckType({
    id: 'echo',
    displayName: 'Echo',
    config,
    run: async ({ value }) => ({ status: 'pass', latencyMs: value, message: `value ${value}` }),
  }),
);
register({
  id: 'deaf',
  displayName: 'Ignores its signal',
  config,
  run: () => new Promise(() => {}),
});
register({
  id: 'throws',
  displayName: 'Throws',
  config,
  run: async () => {
    throw new Error('kaput');
  },
});
register({
  id: 'polite',
  displayName: 'Stops when told',
  config,
  run: (_config, { signal }) =>
    new Promise((resolve) =>
      signal.addEventListener('abort', () =>
        resolve({ status: 'fail', latencyMs: 0, message: 'stopped' }),
      ),
    ),
});

/** A type that names its target and would connect: it only counts the runs that reach it. */
let dialled: string[] = [];
registry.register('probe', {
  id: 'dial',
  displayName: 'Dials its host',
  config: z.object({ host: z.string() }),
  targets: (stored: { host: string }) => [{ path: 'host', host: stored.host }],
  run: async ({ host }: { host: string }) => {
    dialled.push(host);
    return { status: 'pass', latencyMs: 0, message: `dialled ${host}` };
  },
});

const check = (type: string, timeoutMs = 200, stored: Record<string, unknown> = {}) => ({
  type,
  config: stored,
  timeoutMs,
});

/** Waits `waitMs` in the run's queue (timeout stopped), then `workMs` at the target. */
registry.register('probe', {
  id: 'queued',
  displayName: 'Waits in our queue, then works',
  config: z.object({ value: z.number().default(1), waitMs: z.number(), workMs: z.number() }),
  run: async ({ waitMs, workMs }, { signal, queued }) => {
    await queued!((waiting) => sleepUnless(waitMs, waiting));
    await sleepUnless(workMs, signal);
    return { status: 'pass', latencyMs: workMs, message: 'done' };
  },
});

function sleepUnless(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

describe('runCheck', () => {
  it('runs the type with its config parsed again, defaults filled', async () => {
    await expect(runCheck(registry, check('probe.echo'), { targets })).resolves.toEqual({
      status: 'pass',
      latencyMs: 1,
      message: 'value 1',
      queueWaitMs: 0,
    });
  });

  it('fails, never rejects, for unknown types, stored configs the type now refuses and throwing types', async () => {
    await expect(runCheck(registry, check('probe.gone'), { targets })).resolves.toMatchObject({
      status: 'fail',
      message: 'Unknown health check type "probe.gone"',
    });
    await expect(
      runCheck(registry, check('probe.echo', 200, { value: 'x' }), { targets }),
    ).resolves.toMatchObject({ status: 'fail', message: expect.stringMatching(/^Invalid config/) });
    await expect(runCheck(registry, check('probe.throws'), { targets })).resolves.toMatchObject({
      status: 'fail',
      message: 'kaput',
    });
  });

  it('bounds a type that ignores its signal by the timeout and a grace period', async () => {
    // The type never settles: that the run settles at all is the bound at work.
    await expect(runCheck(registry, check('probe.deaf', 100), { targets })).resolves.toMatchObject({
      status: 'fail',
      message: 'Timed out after 100 ms',
    });
  });

  it('aborts the signal when the timeout passes or the caller cancels', async () => {
    await expect(
      runCheck(registry, check('probe.polite', 100), { targets }),
    ).resolves.toMatchObject({
      message: 'stopped',
    });
    const cancel = new AbortController();
    const pending = runCheck(registry, check('probe.polite', 10_000), {
      targets,
      cancel: cancel.signal,
    });
    cancel.abort();
    await expect(pending).resolves.toMatchObject({ message: 'stopped' });
  });

  it('fails before the type runs when the policy refuses a target the type names', async () => {
    dialled = [];
    const resolve = fixedResolver({
      'imds.invalid': ['169.254.169.254'],
      'db.invalid': ['10.0.0.9'],
    });
    const policy = createTargetPolicy({ resolve });
    for (const [host, message] of [
      ['169.254.169.254', 'Target refused: 169.254.169.254 is a cloud metadata address'],
      [
        'imds.invalid',
        'Target refused: imds.invalid resolves to 169.254.169.254, which is a cloud',
      ],
      [
        '[::ffff:127.0.0.1]',
        'Target refused: ::ffff:127.0.0.1 reaches 127.0.0.1, which is a loopback address',
      ],
    ] as const) {
      await expect(
        runCheck(registry, check('probe.dial', 200, { host }), { targets: policy }),
      ).resolves.toMatchObject({ status: 'fail', message: expect.stringContaining(message) });
    }
    expect(dialled).toEqual([]);
    await expect(
      runCheck(registry, check('probe.dial', 200, { host: 'db.invalid' }), { targets: policy }),
    ).resolves.toMatchObject({ status: 'pass', message: 'dialled db.invalid' });
    await expect(
      runCheck(registry, check('probe.dial', 200, { host: 'gone.invalid' }), { targets: policy }),
    ).resolves.toMatchObject({ status: 'fail', message: 'getaddrinfo ENOTFOUND gone.invalid' });
    expect(dialled).toEqual(['db.invalid']);
  });

  it('keeps the wait in its queue out of the timeout and reports it as queueWaitMs', async () => {
    const outcome = await runCheck(
      registry,
      { type: 'probe.queued', config: { waitMs: 400, workMs: 100 }, timeoutMs: 300 },
      { targets },
    );
    expect(outcome).toMatchObject({ status: 'pass', message: 'done' });
    expect(outcome.queueWaitMs).toBeGreaterThanOrEqual(390);
  });

  it('still times out on the time spent at the target', async () => {
    const outcome = await runCheck(
      registry,
      { type: 'probe.queued', config: { waitMs: 50, workMs: 1_000 }, timeoutMs: 200 },
      { targets },
    );
    expect(outcome).toMatchObject({ status: 'fail', message: 'Timed out after 200 ms' });
  });

  it('answers late, not failed, when its queue holds it past startWithinMs', async () => {
    const outcome = await runCheck(
      registry,
      { type: 'probe.queued', config: { waitMs: 5_000, workMs: 10 }, timeoutMs: 1_000 },
      { targets, startWithinMs: 100 },
    );
    expect(outcome).toMatchObject({ status: 'late' });
    expect(outcome.queueWaitMs).toBeGreaterThanOrEqual(90);
  });
});
