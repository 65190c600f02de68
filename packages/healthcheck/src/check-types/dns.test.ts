import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetPolicy } from '@checkline/net';
import { startDnsServer } from '../testing/dns-server.ts';
import { loopbackAllowed } from '../testing/harness.ts';
import type { DnsCheckConfig } from './dns.ts';
import { DnsCheckConfigSchema, dnsCheckType } from './dns.ts';

let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => {
  dns = await startDnsServer({
    'app.test': [
      { type: 'A', address: '192.0.2.10' },
      { type: 'A', address: '192.0.2.11' },
      { type: 'AAAA', address: '2001:db8::10' },
      { type: 'MX', exchange: 'mail.app.test', priority: 10 },
      { type: 'TXT', data: 'v=spf1 -all' },
    ],
    'www.app.test': [{ type: 'CNAME', domain: 'app.test' }],
  });
});
afterAll(() => dns.close());

const loopback = createTargetPolicy(loopbackAllowed);

const run = (
  config: Partial<DnsCheckConfig> & { name: string },
  targets = loopback,
  timeoutMs = 2_000,
) =>
  dnsCheckType.run(
    DnsCheckConfigSchema.parse({ resolver: { address: '127.0.0.1', port: dns.port }, ...config }),
    { signal: new AbortController().signal, timeoutMs, targets },
  );

describe('dns check type', () => {
  describe('works', () => {
    it('passes on any A record when nothing is expected, listing what was answered', async () => {
      await expect(run({ name: 'app.test' })).resolves.toMatchObject({
        status: 'pass',
        message: 'A app.test: 192.0.2.10, 192.0.2.11',
      });
    });

    it('checks AAAA, CNAME, MX and TXT answers against the expected values', async () => {
      await expect(
        run({ name: 'app.test', recordType: 'AAAA', expected: ['2001:DB8:0::10'] }),
      ).resolves.toMatchObject({ status: 'pass', message: 'AAAA app.test: 2001:db8::10' });
      await expect(
        run({ name: 'www.app.test', recordType: 'CNAME', expected: ['APP.test.'] }),
      ).resolves.toMatchObject({ status: 'pass' });
      await expect(
        run({ name: 'app.test', recordType: 'MX', expected: ['10 mail.app.test'] }),
      ).resolves.toMatchObject({ status: 'pass', message: 'MX app.test: mail.app.test' });
      await expect(
        run({ name: 'app.test', recordType: 'MX', expected: ['mail.app.test'] }),
      ).resolves.toMatchObject({ status: 'pass' });
      await expect(
        run({ name: 'app.test', recordType: 'TXT', expected: ['v=spf1 -all'] }),
      ).resolves.toMatchObject({ status: 'pass', message: 'TXT app.test: v=spf1 -all' });
    });

    it('passes "any" on one expected value and "all" only on every one', async () => {
      const expected = ['192.0.2.10', '192.0.2.99'];
      await expect(run({ name: 'app.test', expected })).resolves.toMatchObject({
        status: 'pass',
      });
      await expect(run({ name: 'app.test', expected, match: 'all' })).resolves.toMatchObject({
        status: 'fail',
        message:
          'A app.test: Expected all of "192.0.2.10", "192.0.2.99", got 192.0.2.10, 192.0.2.11',
      });
      await expect(
        run({ name: 'app.test', expected: ['192.0.2.11', '192.0.2.10'], match: 'all' }),
      ).resolves.toMatchObject({ status: 'pass' });
    });

    it('fails when the expected value is not answered', async () => {
      await expect(
        run({ name: 'app.test', recordType: 'TXT', expected: ['v=spf1 ~all'] }),
      ).resolves.toMatchObject({
        status: 'fail',
        message: 'TXT app.test: Expected any of "v=spf1 ~all", got v=spf1 -all',
      });
    });

    it('fails with the DNS error for a name the server does not know', async () => {
      const outcome = await run({ name: 'gone.app.test' });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toMatch(/^ENOTFOUND/);
    });

    it('fails on a name without records of the type asked', async () => {
      const outcome = await run({ name: 'www.app.test', recordType: 'TXT' });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toBe('ENODATA: queryTxt ENODATA www.app.test');
    });

    it('fails once the timeout passes on a resolver that never answers', async () => {
      const silent = createSocket('udp4');
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
      try {
        const outcome = await run(
          { name: 'app.test', resolver: { address: '127.0.0.1', port: silent.address().port } },
          loopback,
          300,
        );
        expect(outcome).toMatchObject({
          status: 'fail',
          message: 'Timed out after 300 ms asking A app.test',
        });
      } finally {
        silent.close();
      }
    });
  });

  describe('keeps to the target policy', () => {
    it('refuses a loopback or metadata resolver unless allowed, never sending a query', async () => {
      const strict = createTargetPolicy();
      const before = dns.queries();
      for (const address of ['127.0.0.1', '::ffff:127.0.0.1', '169.254.169.254']) {
        await expect(
          run({ name: 'app.test', resolver: { address, port: dns.port } }, strict),
        ).resolves.toMatchObject({
          status: 'fail',
          message: expect.stringMatching(/^Target refused: .* (loopback|cloud metadata) address/),
        });
      }
      expect(dns.queries()).toBe(before);
    });

    it('names the resolver as the target a save is judged on', () => {
      const config = DnsCheckConfigSchema.parse({
        name: 'app.test',
        resolver: { address: '10.0.0.53' },
      });
      expect(dnsCheckType.targets!(config)).toEqual([
        { path: 'resolver.address', host: '10.0.0.53' },
      ]);
      expect(dnsCheckType.targets!(DnsCheckConfigSchema.parse({ name: 'app.test' }))).toEqual([]);
    });
  });

  describe('rejects bad input', () => {
    it('refuses unknown record types, names that are no names and resolvers that are no addresses', () => {
      for (const config of [
        { name: 'app.test', recordType: 'SRV' },
        { name: 'two words' },
        { name: '' },
        { name: 'app.test', resolver: { address: 'dns.example' } },
        { name: 'app.test', resolver: { address: '10.0.0.53', port: 0 } },
        { name: 'app.test', expected: [] },
      ]) {
        expect(DnsCheckConfigSchema.safeParse(config).success, JSON.stringify(config)).toBe(false);
      }
    });

    it('fills the defaults', () => {
      expect(
        DnsCheckConfigSchema.parse({ name: 'app.test', resolver: { address: '10.0.0.53' } }),
      ).toEqual({
        name: 'app.test',
        recordType: 'A',
        match: 'any',
        resolver: { address: '10.0.0.53', port: 53 },
      });
    });
  });
});
