import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const run = (config: Partial<HttpCheckConfig> & { url: string }, timeoutMs = 2_000) =>
  httpCheckType.run(HttpCheckConfigSchema.parse(config), {
    signal: new AbortController().signal,
    timeoutMs,
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
      const started = performance.now();
      const outcome = await run({ url: target.url('/hang') }, 300);
      expect(outcome).toMatchObject({ status: 'fail', message: 'Timed out after 300 ms' });
      expect(performance.now() - started).toBeLessThan(2_000);
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
      });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).resolves.toMatchObject({ status: 'fail', message: 'Cancelled' });
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
