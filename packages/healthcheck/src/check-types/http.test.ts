import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetPolicy } from '@checkline/net';
import type { TargetPolicy } from '@checkline/net';
import { fixedResolver, recordClientSockets } from '@checkline/net/testing';
import { loopbackAllowed } from '../testing/harness.ts';
import type { HttpTarget } from '../testing/targets.ts';
import { closedPort, startHttpTarget } from '../testing/targets.ts';
import type { HttpCheckConfig } from './http.ts';
import { HttpCheckConfigSchema, httpCheckType } from './http.ts';

let target: HttpTarget;

beforeAll(async () => {
  target = await startHttpTarget();
  target.respond('/ok', { status: 200, body: 'all systems go' });
  target.respond('/error', { status: 500, body: 'boom' });
  target.respond('/hang', { hang: true });
  target.respond('/moved', { status: 302, headers: { location: '/ok' } });
  target.respond('/created', { status: 201 });
});
afterAll(() => target.close());

const loopback = createTargetPolicy(loopbackAllowed);

const run = (
  config: Partial<HttpCheckConfig> & { url: string },
  timeoutMs = 2_000,
  targets: TargetPolicy = loopback,
) =>
  httpCheckType.run(HttpCheckConfigSchema.parse(config), {
    signal: new AbortController().signal,
    timeoutMs,
    targets,
  });

describe('http check type', () => {
  describe('works', () => {
    it('passes on a 2xx answer and reports the status and latency', async () => {
      const outcome = await run({ url: target.url('/ok') });
      expect(outcome).toMatchObject({ status: 'pass', message: 'Status 200' });
      expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
      await expect(run({ url: target.url('/created') })).resolves.toMatchObject({ status: 'pass' });
    });

    it('fails on a 500 answer, naming what was expected', async () => {
      await expect(run({ url: target.url('/error') })).resolves.toMatchObject({
        status: 'fail',
        message: 'Expected status 2xx, got 500',
      });
    });

    it('fails once the timeout passes on a target that never answers', async () => {
      // The target never answers: the run settling at all is the timeout at work.
      const outcome = await run({ url: target.url('/hang') }, 300);
      expect(outcome).toMatchObject({ status: 'fail', message: 'Timed out after 300 ms' });
      expect(outcome.latencyMs).toBeGreaterThanOrEqual(290);
    });

    it('honours a shorter timeout in the config, never a longer one', async () => {
      await expect(run({ url: target.url('/hang'), timeoutMs: 200 }, 5_000)).resolves.toMatchObject(
        {
          message: 'Timed out after 200 ms',
        },
      );
      await expect(run({ url: target.url('/hang'), timeoutMs: 5_000 }, 200)).resolves.toMatchObject(
        {
          message: 'Timed out after 200 ms',
        },
      );
    });

    it('passes only the listed status codes when given', async () => {
      await expect(
        run({ url: target.url('/error'), expectedStatus: [500, 503] }),
      ).resolves.toMatchObject({ status: 'pass', message: 'Status 500' });
      await expect(run({ url: target.url('/ok'), expectedStatus: [204] })).resolves.toMatchObject({
        status: 'fail',
        message: 'Expected status 204, got 200',
      });
    });

    it('does not follow redirects unless told to', async () => {
      await expect(run({ url: target.url('/moved') })).resolves.toMatchObject({
        status: 'fail',
        message: 'Expected status 2xx, got 302',
      });
      await expect(
        run({ url: target.url('/moved'), expectedStatus: [302] }),
      ).resolves.toMatchObject({
        status: 'pass',
      });
      await expect(
        run({ url: target.url('/moved'), followRedirects: true }),
      ).resolves.toMatchObject({
        status: 'pass',
        message: 'Status 200',
      });
    });

    it('checks the body for a substring when asked', async () => {
      await expect(run({ url: target.url('/ok'), bodyContains: 'go' })).resolves.toMatchObject({
        status: 'pass',
      });
      await expect(run({ url: target.url('/ok'), bodyContains: 'on fire' })).resolves.toMatchObject(
        {
          status: 'fail',
          message: 'Status 200, but the body lacks "on fire"',
        },
      );
    });

    it('fails with the error code when nothing listens', async () => {
      const port = await closedPort();
      const outcome = await run({ url: `http://127.0.0.1:${port}/` });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toMatch(/^ECONNREFUSED/);
    });

    it('stops at once when its signal is aborted', async () => {
      const controller = new AbortController();
      const pending = httpCheckType.run(HttpCheckConfigSchema.parse({ url: target.url('/hang') }), {
        signal: controller.signal,
        timeoutMs: 10_000,
        targets: loopback,
      });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).resolves.toMatchObject({ status: 'fail', message: 'Cancelled' });
    });
  });

  describe('reads only the start of a body', () => {
    it('searches the first MiB of a body that never ends, then stops reading', async () => {
      target.respond('/endless', { endless: true });
      await expect(
        run({ url: target.url('/endless'), bodyContains: 'needle' }, 10_000),
      ).resolves.toMatchObject({
        status: 'fail',
        message: 'Status 200, but the body lacks "needle"',
      });
    });
  });

  describe('keeps to the target policy', () => {
    const port = () => target.port;

    it('refuses loopback unless the policy allows it, without connecting', async () => {
      target.respond('/guarded', { status: 200 });
      const sockets = recordClientSockets();
      try {
        for (const url of [
          target.url('/guarded'),
          `http://localhost:${port()}/guarded`,
          `http://[::ffff:127.0.0.1]:${port()}/guarded`,
          `http://2130706433:${port()}/guarded`,
        ]) {
          await expect(run({ url }, 2_000, createTargetPolicy())).resolves.toMatchObject({
            status: 'fail',
            message: expect.stringMatching(/^Target refused: .* a loopback address/),
          });
        }
        expect(sockets.created()).toBe(0);
        expect(target.hits('/guarded')).toBe(0);
      } finally {
        sockets.stop();
      }
    });

    it('refuses a name when any of its addresses is refused, without connecting', async () => {
      const resolve = fixedResolver({
        'imds.invalid': ['169.254.169.254'],
        'split.invalid': ['127.0.0.1', 'fe80::1'],
      });
      const policy = createTargetPolicy({ ...loopbackAllowed, resolve });
      const sockets = recordClientSockets();
      try {
        await expect(run({ url: 'http://imds.invalid/latest/' }, 2_000, policy)).resolves.toEqual(
          expect.objectContaining({
            status: 'fail',
            message:
              'Target refused: imds.invalid resolves to 169.254.169.254, which is a cloud metadata address (CHECK_TARGETS_ALLOW can allow it)',
          }),
        );
        await expect(
          run({ url: `http://split.invalid:${port()}/ok` }, 2_000, policy),
        ).resolves.toMatchObject({
          status: 'fail',
          message: expect.stringMatching(
            /split\.invalid resolves to fe80::1, which is a link-local/,
          ),
        });
        expect(sockets.created()).toBe(0);
      } finally {
        sockets.stop();
      }
    });

    it('connects to the address it checked, not to what DNS answers next', async () => {
      target.respond('/pinned', { status: 200 });
      let answers = 0;
      const rebinding = async () => {
        answers += 1;
        const address = answers === 1 ? '127.0.0.1' : '169.254.169.254';
        return [{ address, family: 4 as const }];
      };
      const policy = createTargetPolicy({ allow: ['127.0.0.1'], resolve: rebinding });
      await expect(
        run({ url: `http://rebinding.invalid:${port()}/pinned` }, 2_000, policy),
      ).resolves.toMatchObject({ status: 'pass', message: 'Status 200' });
      expect(answers).toBe(1);
      expect(target.hits('/pinned')).toBe(1);
      expect(target.headersOf('/pinned')?.host).toBe(`rebinding.invalid:${port()}`);
    });

    it('judges every redirect hop before following it', async () => {
      const resolve = fixedResolver({
        'imds.invalid': ['169.254.169.254'],
        'checked.invalid': ['127.0.0.1'],
        'denied.invalid': ['127.0.0.1'],
      });
      const policy = createTargetPolicy({
        allow: ['127.0.0.1'],
        deny: ['denied.invalid'],
        resolve,
      });
      target.respond('/secret', { status: 200, body: 'secret' });
      const hops = {
        '/to-metadata': 'http://imds.invalid/latest/meta-data/',
        '/to-denied': `http://denied.invalid:${port()}/secret`,
        '/to-ipv6-loopback': `http://[::1]:${port()}/secret`,
        '/to-file': 'file:///etc/passwd',
      };
      for (const [path, location] of Object.entries(hops)) {
        target.respond(path, { status: 302, headers: { location } });
      }
      const outcomes = [];
      for (const path of Object.keys(hops)) {
        const url = `http://checked.invalid:${port()}${path}`;
        outcomes.push((await run({ url, followRedirects: true }, 2_000, policy)).message);
      }
      expect(outcomes).toEqual([
        expect.stringMatching(/^Target refused: imds\.invalid resolves to 169\.254\.169\.254/),
        'Target refused: denied.invalid is denied by CHECK_TARGETS_DENY (denied.invalid)',
        expect.stringMatching(/^Target refused: ::1 is a loopback address/),
        'Redirected to file: URL, which checks do not follow',
      ]);
      expect(target.hits('/secret')).toBe(0);
    });

    it('stops after five redirects and sends credentials only to the configured origin', async () => {
      target.respond('/loop', { status: 302, headers: { location: '/loop' } });
      await expect(run({ url: target.url('/loop'), followRedirects: true })).resolves.toMatchObject(
        {
          status: 'fail',
          message: 'Stopped after 5 redirects',
        },
      );
      target.respond('/elsewhere', {
        status: 307,
        headers: { location: `http://localhost:${port()}/landing` },
      });
      await expect(
        run({
          url: target.url('/elsewhere'),
          followRedirects: true,
          headers: { authorization: 'Bearer s3cret', 'x-trace': 'kept' },
        }),
      ).resolves.toMatchObject({ status: 'pass' });
      expect(target.headersOf('/elsewhere')?.authorization).toBe('Bearer s3cret');
      expect(target.headersOf('/landing')).toMatchObject({ 'x-trace': 'kept' });
      expect(target.headersOf('/landing')?.authorization).toBeUndefined();
    });
  });

  describe('rejects bad input', () => {
    it('accepts only http and https URLs', () => {
      for (const url of [
        'ftp://example.com/',
        'javascript:alert(1)',
        'file:///etc/passwd',
        'nope',
      ]) {
        expect(HttpCheckConfigSchema.safeParse({ url }).success, url).toBe(false);
      }
      expect(HttpCheckConfigSchema.safeParse({ url: 'https://example.com/health' }).success).toBe(
        true,
      );
    });

    it('refuses bad header names, header values with line breaks and impossible status codes', () => {
      const url = 'http://127.0.0.1/';
      expect(HttpCheckConfigSchema.safeParse({ url, headers: { 'bad name': 'x' } }).success).toBe(
        false,
      );
      expect(HttpCheckConfigSchema.safeParse({ url, headers: { a: 'x\r\ny: z' } }).success).toBe(
        false,
      );
      expect(HttpCheckConfigSchema.safeParse({ url, expectedStatus: [99] }).success).toBe(false);
      expect(HttpCheckConfigSchema.safeParse({ url, expectedStatus: [] }).success).toBe(false);
    });

    it('fills the defaults', () => {
      expect(HttpCheckConfigSchema.parse({ url: 'http://127.0.0.1/' })).toEqual({
        url: 'http://127.0.0.1/',
        method: 'GET',
        headers: {},
        followRedirects: false,
      });
    });
  });
});
