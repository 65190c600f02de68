import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoopbackServer } from './testing/loopback-server.ts';
import { startLoopbackServer } from './testing/loopback-server.ts';
import { createEgress } from './egress.ts';
import { TargetRefusedError } from './target-policy.ts';
import { fixedResolver } from './testing/resolver.ts';

let receiver: LoopbackServer;
let elsewhere: LoopbackServer;
let silent: LoopbackServer;

beforeAll(async () => {
  elsewhere = await startLoopbackServer((_request, response) => {
    response.end('you should not be here');
  });
  receiver = await startLoopbackServer((request, response) => {
    if (request.url === '/moved') {
      response.writeHead(302, { location: `${elsewhere.url}/landing` }).end();
      return;
    }
    if (request.url === '/large') {
      response.writeHead(200).end('x'.repeat(3 * 1024 * 1024));
      return;
    }
    response
      .writeHead(201, { 'content-type': 'text/plain', 'x-seen': request.method })
      .end(`got ${request.body}`);
  });
  // Accepts connections, never answers: only a timeout ends a call to it.
  silent = await startLoopbackServer(() => new Promise<void>(() => undefined));
});
afterAll(async () => {
  await Promise.all([receiver.close(), elsewhere.close(), silent.close()]);
});
afterEach(() => {
  receiver.requests.length = 0;
  elsewhere.requests.length = 0;
});

describe('egress guard', () => {
  describe('with private addresses allowed (an on-premise receiver)', () => {
    const egress = createEgress({ allowPrivate: true });

    it('sends the request and answers status, headers and body', async () => {
      const response = await egress.fetch(`${receiver.url}/hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-seen')).toBe('POST');
      expect(await response.text()).toBe('got {"a":1}');
      expect(receiver.requests).toMatchObject([
        {
          method: 'POST',
          url: '/hook',
          body: '{"a":1}',
          headers: { 'content-type': 'application/json' },
        },
      ]);
    });

    it('connects to the address it judged, asking DNS once per call (the name is in no DNS)', async () => {
      const resolve = fixedResolver({ 'receiver.invalid': ['127.0.0.1'] });
      const pinned = createEgress({ allowPrivate: true, resolve });
      const port = new URL(receiver.url).port;
      const response = await pinned.fetch(`http://receiver.invalid:${port}/pinned`);
      expect(response.status).toBe(201);
      expect(receiver.requests[0]).toMatchObject({ url: '/pinned' });
      expect(receiver.requests[0]!.headers.host).toBe(`receiver.invalid:${port}`);
      expect(resolve.calls).toEqual(['receiver.invalid']);
    });

    it('answers a redirect as it is, and the redirect target receives nothing', async () => {
      const response = await egress.fetch(`${receiver.url}/moved`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`${elsewhere.url}/landing`);
      expect(elsewhere.requests).toEqual([]);
      expect(elsewhere.connections).toBe(0);
    });

    it('reads the first MiB of a long answer only', async () => {
      const response = await egress.fetch(`${receiver.url}/large`);
      expect((await response.arrayBuffer()).byteLength).toBe(1024 * 1024);
    });

    it('gives up when the service does not answer in time', async () => {
      await expect(egress.fetch(silent.url, { timeoutMs: 200 })).rejects.toMatchObject({
        code: 'ETIMEDOUT',
        message: 'timed out after 200 ms',
      });
    });

    it('still refuses the cloud metadata services, by address and by name', async () => {
      const resolve = fixedResolver({ 'imds.invalid': ['169.254.169.254'] });
      const guarded = createEgress({ allowPrivate: true, resolve });
      await expect(guarded.fetch('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(
        'Target refused: 169.254.169.254 is a cloud metadata address',
      );
      await expect(guarded.vet('http://imds.invalid/')).rejects.toThrow(
        'imds.invalid resolves to 169.254.169.254, which is a cloud metadata address',
      );
      await expect(guarded.vet('http://metadata.google.internal/')).rejects.toThrow(
        'metadata.google.internal is a cloud metadata host name',
      );
    });
  });

  describe('by default (private addresses refused)', () => {
    const resolve = fixedResolver({
      'loop.invalid': ['127.0.0.1'],
      'mixed.invalid': ['93.184.215.14', '10.0.0.7'],
    });
    const egress = createEgress({ resolve });

    it.each([
      [
        'http://169.254.169.254/latest/meta-data/',
        'Target refused: 169.254.169.254 is a cloud metadata address',
      ],
      [
        'http://10.0.0.1/',
        'Target refused: 10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can allow it)',
      ],
      ['http://100.64.1.1/', '100.64.1.1 is a shared (CGNAT) address (WEBHOOK_ALLOW_PRIVATE'],
      ['http://[::1]/', '::1 is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)'],
      ['http://[fd00::5]/', 'fd00::5 is a private address'],
      ['http://224.0.0.1/', '224.0.0.1 is a multicast address'],
      ['http://0.0.0.0/', '0.0.0.0 is an unspecified address'],
      ['http://localhost/', 'localhost resolves to 127.0.0.1, which is a loopback address'],
      [
        'http://mixed.invalid/',
        'mixed.invalid resolves to 10.0.0.7, which is a private address (WEBHOOK_ALLOW_PRIVATE',
      ],
    ])('refuses %s', async (url, message) => {
      await expect(egress.vet(url)).rejects.toThrow(message);
      await expect(egress.fetch(url)).rejects.toThrow(message);
    });

    it('refuses a name resolving to loopback without opening a connection', async () => {
      const before = receiver.connections;
      const url = `http://loop.invalid:${receiver.port}/hook`;
      const refusal = await egress.fetch(url, { method: 'POST', body: '{}' }).catch((e) => e);
      expect(refusal).toBeInstanceOf(TargetRefusedError);
      expect((refusal as Error).message).toBe(
        'Target refused: loop.invalid resolves to 127.0.0.1, which is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)',
      );
      expect(receiver.connections).toBe(before);
      expect(receiver.requests).toEqual([]);
    });

    it('refuses a loopback address without opening a connection', async () => {
      const before = receiver.connections;
      await expect(egress.fetch(`${receiver.url}/hook`)).rejects.toBeInstanceOf(TargetRefusedError);
      expect(receiver.connections).toBe(before);
    });

    it('refuses other schemes and URLs with credentials before resolving anything', async () => {
      const calls = resolve.calls.length;
      await expect(egress.vet('ftp://files.invalid/x')).rejects.toThrow(
        'Target refused: ftp: URLs are not allowed, only http and https',
      );
      await expect(egress.vet('file:///etc/passwd')).rejects.toThrow('file: URLs are not allowed');
      await expect(egress.fetch('https://user:pass@hooks.invalid/')).rejects.toThrow(
        'URLs with credentials (user:password@) are not allowed',
      );
      await expect(egress.vet('not a url')).rejects.toThrow('not an absolute URL');
      expect(resolve.calls.length).toBe(calls);
    });

    it('passes DNS errors on as they are (not a refusal: worth another attempt)', async () => {
      const failure = await egress.vet('https://gone.invalid/').catch((e) => e);
      expect(failure).not.toBeInstanceOf(TargetRefusedError);
      expect(failure).toMatchObject({ code: 'ENOTFOUND' });
    });
  });
});
