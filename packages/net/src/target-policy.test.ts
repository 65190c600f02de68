import { describe, expect, it } from 'vitest';
import { fixedResolver } from './testing/resolver.ts';
import type { TargetPolicyOptions } from './target-policy.ts';
import { TargetRefusedError, createTargetPolicy } from './target-policy.ts';

/**
 * The policy alone: names resolve through a table, and nothing here opens a connection, so
 * every address can be judged, metadata and link-local included.
 */
const resolve = fixedResolver({
  'imds.invalid': ['169.254.169.254'],
  'office.invalid': ['10.1.2.3', '192.168.7.7'],
  'split.invalid': ['10.1.2.3', 'fe80::1'],
  'mapped.invalid': ['::ffff:169.254.169.254'],
  'loop.invalid': ['127.0.0.1'],
  'public.invalid': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'odd.invalid': ['not-an-address'],
});

const verdict = async (host: string, options: TargetPolicyOptions = {}) => {
  try {
    const target = await createTargetPolicy({ resolve, ...options }).vet(host);
    return target.addresses.map((entry) => entry.address);
  } catch (error) {
    if (error instanceof TargetRefusedError) return error.message;
    throw error;
  }
};

describe('target policy', () => {
  describe('by default', () => {
    it.each([
      ['169.254.169.254', 'Target refused: 169.254.169.254 is a cloud metadata address'],
      ['169.254.10.1', 'Target refused: 169.254.10.1 is a link-local address'],
      ['fe80::1', 'Target refused: fe80::1 is a link-local address'],
      ['[fe80::1%eth0]', 'Target refused: fe80::1%eth0 is a link-local address'],
      ['fd00:ec2::254', 'Target refused: fd00:ec2::254 is a cloud metadata address'],
      ['100.100.100.200', 'Target refused: 100.100.100.200 is a cloud metadata address'],
      [
        '::ffff:169.254.169.254',
        '::ffff:169.254.169.254 reaches 169.254.169.254, which is a cloud',
      ],
      ['::ffff:a9fe:a9fe', '::ffff:a9fe:a9fe reaches 169.254.169.254, which is a cloud metadata'],
      ['64:ff9b::a9fe:a9fe', 'Target refused: 64:ff9b::a9fe:a9fe reaches 169.254.169.254'],
      ['127.0.0.1', 'Target refused: 127.0.0.1 is a loopback address'],
      ['127.1', 'Target refused: 127.1 is a loopback address'],
      ['0x7f000001', 'Target refused: 0x7f000001 is a loopback address'],
      ['::1', 'Target refused: ::1 is a loopback address'],
      ['::ffff:127.0.0.1', '::ffff:127.0.0.1 reaches 127.0.0.1, which is a loopback address'],
      ['0.0.0.0', 'Target refused: 0.0.0.0 is an unspecified address'],
      ['::', 'Target refused: :: is an unspecified address'],
      ['localhost', 'Target refused: localhost resolves to 127.0.0.1, which is a loopback'],
      ['api.localhost', 'Target refused: api.localhost resolves to 127.0.0.1, which is a loopback'],
      [
        'metadata.google.internal',
        'Target refused: metadata.google.internal is a cloud metadata host name',
      ],
      [
        'METADATA.google.internal.',
        'Target refused: metadata.google.internal is a cloud metadata host name',
      ],
      [
        'imds.invalid',
        'Target refused: imds.invalid resolves to 169.254.169.254, which is a cloud',
      ],
      [
        'mapped.invalid',
        'Target refused: mapped.invalid resolves to ::ffff:169.254.169.254, which',
      ],
      ['split.invalid', 'Target refused: split.invalid resolves to fe80::1, which is a link-local'],
      ['loop.invalid', 'Target refused: loop.invalid resolves to 127.0.0.1, which is a loopback'],
      ['odd.invalid', 'Target refused: odd.invalid resolves to "not-an-address", which is no IP'],
    ])('refuses %s', async (host, message) => {
      expect(await verdict(host)).toEqual(expect.stringContaining(message));
    });

    it('allows private ranges and public addresses, answering every address it judged', async () => {
      expect(await verdict('10.0.0.1')).toEqual(['10.0.0.1']);
      expect(await verdict('192.168.0.10')).toEqual(['192.168.0.10']);
      expect(await verdict('172.16.5.5')).toEqual(['172.16.5.5']);
      expect(await verdict('fd12::1')).toEqual(['fd12::1']);
      expect(await verdict('::ffff:10.0.0.1')).toEqual(['10.0.0.1']);
      expect(await verdict('office.invalid')).toEqual(['10.1.2.3', '192.168.7.7']);
      expect(await verdict('public.invalid')).toHaveLength(2);
    });

    it('does not resolve refused metadata names, and passes DNS errors on as they are', async () => {
      resolve.calls.length = 0;
      await verdict('metadata.google.internal');
      await verdict('localhost');
      expect(resolve.calls).toEqual([]);
      await expect(createTargetPolicy({ resolve }).vet('gone.invalid')).rejects.toMatchObject({
        code: 'ENOTFOUND',
      });
    });
  });

  describe('with CHECK_TARGETS_ALLOW and CHECK_TARGETS_DENY', () => {
    it('allows loopback once allowed, by range or by name', async () => {
      expect(await verdict('127.0.0.1', { allow: ['127.0.0.0/8'] })).toEqual(['127.0.0.1']);
      expect(await verdict('localhost', { allow: ['127.0.0.0/8', '::1'] })).toEqual([
        '127.0.0.1',
        '::1',
      ]);
      expect(await verdict('localhost', { allow: ['localhost'] })).toEqual(['127.0.0.1', '::1']);
      expect(await verdict('localhost', { allow: ['127.0.0.0/8'] })).toMatch(
        /::1, which is a loopback/,
      );
    });

    it('keeps the metadata address refused when only link-local is allowed', async () => {
      const options = { allow: ['169.254.0.0/16'] };
      expect(await verdict('169.254.10.1', options)).toEqual(['169.254.10.1']);
      expect(await verdict('169.254.169.254', options)).toMatch(/cloud metadata address/);
      expect(await verdict('169.254.169.254', { allow: ['169.254.169.254'] })).toEqual([
        '169.254.169.254',
      ]);
    });

    it('lets the most specific entry decide, a deny winning a tie', async () => {
      const options = {
        deny: ['10.0.0.0/8', '192.168.1.7/32'],
        allow: ['10.1.0.0/16', '192.168.1.7'],
      };
      expect(await verdict('10.2.0.1', options)).toBe(
        'Target refused: 10.2.0.1 is denied by CHECK_TARGETS_DENY (10.0.0.0/8)',
      );
      expect(await verdict('10.1.9.9', options)).toEqual(['10.1.9.9']);
      expect(await verdict('192.168.1.7', options)).toMatch(
        /denied by CHECK_TARGETS_DENY \(192\.168\.1\.7\/32\)/,
      );
      expect(await verdict('office.invalid', options)).toEqual(['10.1.2.3', '192.168.7.7']);
      expect(await verdict('office.invalid', { deny: ['192.168.7.0/24'] })).toMatch(
        /office\.invalid resolves to 192\.168\.7\.7, which is denied/,
      );
      expect(await verdict('172.16.0.1', options)).toEqual(['172.16.0.1']);
    });

    it('narrows to an allow list: deny everything, allow a few', async () => {
      const options = {
        deny: ['0.0.0.0/0', '::/0'],
        allow: ['10.1.0.0/16', 'status.partner.invalid'],
      };
      expect(await verdict('10.1.2.3', options)).toEqual(['10.1.2.3']);
      expect(await verdict('10.2.2.3', options)).toMatch(
        /denied by CHECK_TARGETS_DENY \(0\.0\.0\.0\/0\)/,
      );
      expect(await verdict('2606:2800::1', options)).toMatch(
        /denied by CHECK_TARGETS_DENY \(::\/0\)/,
      );
      const partner = createTargetPolicy({
        ...options,
        resolve: fixedResolver({ 'status.partner.invalid': ['203.0.113.9'] }),
      });
      await expect(partner.vet('status.partner.invalid')).resolves.toMatchObject({
        addresses: [{ address: '203.0.113.9', family: 4 }],
      });
    });

    it('denies host names exactly or below a wildcard; a name allowed is allowed whatever it resolves to', async () => {
      const options = { deny: ['office.invalid', '*.corp.invalid'] };
      expect(await verdict('office.invalid', options)).toBe(
        'Target refused: office.invalid is denied by CHECK_TARGETS_DENY (office.invalid)',
      );
      expect(await verdict('db.corp.invalid', options)).toMatch(
        /denied by CHECK_TARGETS_DENY \(\*\.corp\.invalid\)/,
      );
      const metadataAllowed = createTargetPolicy({
        allow: ['metadata.google.internal'],
        resolve: fixedResolver({ 'metadata.google.internal': ['169.254.169.254'] }),
      });
      await expect(metadataAllowed.vet('metadata.google.internal')).resolves.toMatchObject({
        addresses: [{ address: '169.254.169.254' }],
      });
    });

    it('refuses to start with an entry that is not valid, naming it', () => {
      expect(() => createTargetPolicy({ allow: ['10.0.0.0/8', 'not valid'] })).toThrow(
        'CHECK_TARGETS_ALLOW: not an address, range or host name: not valid',
      );
    });
  });

  describe('with the non-public set (outgoing calls users aim, such as webhooks)', () => {
    const strict = { builtIn: 'non-public', allowSetting: 'WEBHOOK_ALLOW_PRIVATE' } as const;

    it.each([
      ['10.0.0.1', 'Target refused: 10.0.0.1 is a private address (WEBHOOK_ALLOW_PRIVATE can'],
      ['172.31.255.1', '172.31.255.1 is a private address'],
      ['192.168.0.10', '192.168.0.10 is a private address'],
      ['fd12::1', 'fd12::1 is a private address'],
      ['::ffff:10.0.0.1', '::ffff:10.0.0.1 reaches 10.0.0.1, which is a private address'],
      ['100.64.0.1', '100.64.0.1 is a shared (CGNAT) address'],
      ['224.0.0.251', '224.0.0.251 is a multicast address'],
      ['ff02::1', 'ff02::1 is a multicast address'],
      ['255.255.255.255', '255.255.255.255 is a reserved address'],
      ['198.18.0.1', '198.18.0.1 is a reserved address'],
      ['2001:db8::1', '2001:db8::1 is a reserved address'],
      ['64:ff9b::a00:1', '64:ff9b::a00:1 reaches 10.0.0.1, which is a private address'],
      ['127.0.0.1', '127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE can allow it)'],
      ['::1', '::1 is a loopback address'],
      ['office.invalid', 'office.invalid resolves to 10.1.2.3, which is a private address'],
      ['loop.invalid', 'loop.invalid resolves to 127.0.0.1, which is a loopback address'],
    ])('refuses %s, naming the setting that lifts it', async (host, message) => {
      expect(await verdict(host, strict)).toEqual(expect.stringContaining(message));
    });

    it('names no setting for the metadata services, which stay refused whatever it says', async () => {
      expect(await verdict('169.254.169.254', strict)).toBe(
        'Target refused: 169.254.169.254 is a cloud metadata address',
      );
      expect(await verdict('imds.invalid', strict)).toBe(
        'Target refused: imds.invalid resolves to 169.254.169.254, which is a cloud metadata address',
      );
      expect(await verdict('169.254.10.1', strict)).toBe(
        'Target refused: 169.254.10.1 is a link-local address (WEBHOOK_ALLOW_PRIVATE can allow it)',
      );
      expect(await verdict('metadata.google.internal', strict)).toBe(
        'Target refused: metadata.google.internal is a cloud metadata host name',
      );
    });

    it('allows public addresses', async () => {
      expect(await verdict('public.invalid', strict)).toHaveLength(2);
      expect(await verdict('8.8.8.8', strict)).toEqual(['8.8.8.8']);
      expect(await verdict('100.128.0.1', strict)).toEqual(['100.128.0.1']);
    });
  });

  describe('with the metadata set (an operator lifted the private-address refusal)', () => {
    const loose = { builtIn: 'metadata', allowSetting: null } as const;

    it('allows loopback and private addresses but never the metadata services', async () => {
      expect(await verdict('127.0.0.1', loose)).toEqual(['127.0.0.1']);
      expect(await verdict('office.invalid', loose)).toEqual(['10.1.2.3', '192.168.7.7']);
      expect(await verdict('169.254.169.254', loose)).toBe(
        'Target refused: 169.254.169.254 is a cloud metadata address',
      );
      expect(await verdict('metadata.google.internal', loose)).toBe(
        'Target refused: metadata.google.internal is a cloud metadata host name',
      );
    });
  });

  describe('pins the connection', () => {
    it('answers only the judged addresses from its lookup, without asking DNS again', async () => {
      const calls = resolve.calls.length;
      const target = await createTargetPolicy({ resolve }).vet('office.invalid');
      const all = await new Promise((done) =>
        target.lookup('office.invalid', { all: true }, (_error, addresses) => done(addresses)),
      );
      expect(all).toEqual([
        { address: '10.1.2.3', family: 4 },
        { address: '192.168.7.7', family: 4 },
      ]);
      const v6 = await new Promise((done) =>
        target.lookup('anything', { family: 6 }, (error) =>
          done((error as { code?: string }).code),
        ),
      );
      expect(v6).toBe('ENOTFOUND');
      expect(resolve.calls.length).toBe(calls + 1);
    });
  });
});
