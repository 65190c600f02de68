import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HealthCheckType } from './check-type.ts';
import { createHealthCheckTypeRegistry, defineHealthCheckType } from './check-type.ts';
import { runCheck } from './run-check.ts';

const registry = createHealthCheckTypeRegistry();
const register = (type: HealthCheckType<{ value: number }>) =>
  registry.register('probe', type as HealthCheckType);
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

const check = (type: string, timeoutMs = 200, stored: Record<string, unknown> = {}) => ({
  type,
  config: stored,
  timeoutMs,
});

describe('runCheck', () => {
  it('runs the type with its config parsed again, defaults filled', async () => {
    await expect(runCheck(registry, check('probe.echo'))).resolves.toEqual({
      status: 'pass',
      latencyMs: 1,
      message: 'value 1',
    });
  });

  it('fails, never rejects, for unknown types, stored configs the type now refuses and throwing types', async () => {
    await expect(runCheck(registry, check('probe.gone'))).resolves.toMatchObject({
      status: 'fail',
      message: 'Unknown health check type "probe.gone"',
    });
    await expect(
      runCheck(registry, check('probe.echo', 200, { value: 'x' })),
    ).resolves.toMatchObject({ status: 'fail', message: expect.stringMatching(/^Invalid config/) });
    await expect(runCheck(registry, check('probe.throws'))).resolves.toMatchObject({
      status: 'fail',
      message: 'kaput',
    });
  });

  it('bounds a type that ignores its signal by the timeout and a grace period', async () => {
    const started = performance.now();
    await expect(runCheck(registry, check('probe.deaf', 100))).resolves.toMatchObject({
      status: 'fail',
      message: 'Timed out after 100 ms',
    });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('aborts the signal when the timeout passes or the caller cancels', async () => {
    await expect(runCheck(registry, check('probe.polite', 100))).resolves.toMatchObject({
      message: 'stopped',
    });
    const cancel = new AbortController();
    const pending = runCheck(registry, check('probe.polite', 10_000), cancel.signal);
    cancel.abort();
    await expect(pending).resolves.toMatchObject({ message: 'stopped' });
  });
});
