import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_ORIGIN, closeSharedPinnedAgent, createTargetPolicy } from '@checkline/net';
import type { TargetPolicy } from '@checkline/net';
import { fixedResolver, recordClientSockets } from '@checkline/net/testing';
import type { HttpTarget } from '../testing/targets.ts';
import { startHttpTarget } from '../testing/targets.ts';
import { createHealthCheckTypeRegistry } from '../check-type.ts';
import { runCheck } from '../run-check.ts';
import type { HttpCheckConfig } from './http.ts';
import { HttpCheckConfigSchema, httpCheckType } from './http.ts';

let target: HttpTarget;
let sockets: ReturnType<typeof recordClientSockets>;
const policies: TargetPolicy[] = [];

beforeAll(async () => {
  target = await startHttpTarget();
});
afterAll(() => target.close());
afterEach(async () => {
  sockets.stop();
  for (const policy of policies.splice(0)) await closeSharedPinnedAgent(policy);
});

function policy(options: Parameters<typeof createTargetPolicy>[0]) {
  const created = createTargetPolicy(options);
  policies.push(created);
  sockets = recordClientSockets();
  return created;
}

// Reading the body to its end frees the connection before the run answers.
const run = (config: Partial<HttpCheckConfig> & { url: string }, targets: TargetPolicy) =>
  httpCheckType.run(HttpCheckConfigSchema.parse({ bodyContains: 'ok', ...config }), {
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    targets,
  });

describe('http checks share connections per origin', () => {
  it('reuse one kept-alive connection for runs one after another', async () => {
    const loopback = policy({ allow: ['127.0.0.0/8'] });
    for (const path of ['/r1', '/r2', '/r3', '/r4', '/r5']) {
      await expect(run({ url: target.url(path) }, loopback)).resolves.toMatchObject({
        status: 'pass',
      });
      // undici hands the connection back to its pool on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sockets.created()).toBe(1);
  });

  it(`open at most ${CONNECTIONS_PER_ORIGIN} connections to one origin, however many runs at once`, async () => {
    const loopback = policy({ allow: ['127.0.0.0/8'] });
    target.respond('/slowish', { status: 200, body: 'ok', delayMs: 100 });
    const outcomes = await Promise.all(
      Array.from({ length: 2 * CONNECTIONS_PER_ORIGIN }, () =>
        run({ url: target.url('/slowish') }, loopback),
      ),
    );
    expect(outcomes.every((outcome) => outcome.status === 'pass')).toBe(true);
    expect(sockets.created()).toBeGreaterThan(1);
    expect(sockets.created()).toBeLessThanOrEqual(CONNECTIONS_PER_ORIGIN);
  });

  it('refuse a host the policy refuses now before reusing the connection it had', async () => {
    const table: Record<string, string[]> = { 'svc.test': ['127.0.0.1'] };
    const resolving = policy({ allow: ['127.0.0.0/8'], resolve: fixedResolver(table) });
    const url = `http://svc.test:${target.port}/rebind`;
    await expect(run({ url }, resolving)).resolves.toMatchObject({ status: 'pass' });
    // The name now resolves to the metadata address: refused, and nothing is sent.
    table['svc.test'] = ['169.254.169.254'];
    await expect(run({ url }, resolving)).resolves.toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^Target refused/),
    });
    expect(target.hits('/rebind')).toBe(1);
    expect(sockets.created()).toBe(1);
  });

  it('keep the connections of one policy from the checks of another', async () => {
    const first = policy({ allow: ['127.0.0.0/8'] });
    await run({ url: target.url('/p1') }, first);
    const second = createTargetPolicy({ allow: ['127.0.0.0/8'] });
    policies.push(second);
    await run({ url: target.url('/p2') }, second);
    expect(sockets.created()).toBe(2);
  });

  it('keep the wait for a connection slot out of the timeout, and report it', async () => {
    const loopback = policy({ allow: ['127.0.0.0/8'] });
    target.respond('/queue', { status: 200, body: 'ok', delayMs: 500 });
    const registry = createHealthCheckTypeRegistry();
    registry.register('healthcheck', httpCheckType);
    // Five runs per connection at once: the later ones wait for a slot longer than the timeout,
    // and still reach the target within it.
    const timeoutMs = 1_500;
    const outcomes = await Promise.all(
      Array.from({ length: 5 * CONNECTIONS_PER_ORIGIN }, () =>
        runCheck(
          registry,
          { type: 'healthcheck.http', config: { url: target.url('/queue') }, timeoutMs },
          { targets: loopback },
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status !== 'pass')).toEqual([]);
    const waitedLonger = outcomes.filter((outcome) => (outcome.queueWaitMs ?? 0) > timeoutMs);
    expect(waitedLonger.length).toBeGreaterThan(0);
    expect(sockets.created()).toBeLessThanOrEqual(CONNECTIONS_PER_ORIGIN);
  });
});
