import { describe, expect, it } from 'vitest';
import { embeddedIPv4, literalAddress, reachedAddresses } from './address.ts';
import type { BuiltInRefusalSet } from './built-in-refusals.ts';
import { createTargetPolicy, TargetRefusedError } from './target-policy.ts';
import { embeddedSpellings } from './testing/embedded-spellings.ts';
import { fixedResolver } from './testing/resolver.ts';

describe('address classification', () => {
  describe('works', () => {
    it.each(embeddedSpellings)('finds in %s the IPv4 address %s (%s)', (spelling, ipv4) => {
      const address = literalAddress(spelling)!;
      expect(embeddedIPv4(address)?.toString()).toBe(ipv4);
      expect(reachedAddresses(address).map(String)[0]).toBe(ipv4);
    });

    it.each(['::', '::1', '2606:4700::1111', 'fe80::1', '93.184.215.14'])(
      'finds no IPv4 address in %s',
      (spelling) => {
        expect(embeddedIPv4(literalAddress(spelling)!)).toBeUndefined();
        expect(reachedAddresses(literalAddress(spelling)!)).toHaveLength(1);
      },
    );
  });

  describe('refuses every spelling as its IPv4 address, in every refusal set', () => {
    const loopbackAndMetadata = embeddedSpellings.filter(([, ipv4]) => ipv4 !== '10.0.0.1');
    const sets: BuiltInRefusalSet[] = ['local', 'non-public'];
    const cases = sets.flatMap((set) =>
      loopbackAndMetadata.map(([spelling, ipv4]) => [set, spelling, ipv4] as const),
    );

    it.each(cases)('%s refuses %s as %s, resolved or literal', async (set, spelling, ipv4) => {
      const policy = createTargetPolicy({
        builtIn: set,
        resolve: fixedResolver({ 'embedded.invalid': [spelling] }),
      });
      for (const [host, said] of [
        [spelling, `${spelling} reaches ${ipv4}, which is a`],
        [`[${spelling}]`, `${spelling} reaches ${ipv4}, which is a`],
        ['embedded.invalid', `embedded.invalid resolves to ${spelling}, which reaches ${ipv4}`],
      ]) {
        const refusal = await policy.vet(host!).catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(TargetRefusedError);
        expect((refusal as Error).message).toContain(said);
      }
    });

    it('keeps the metadata services refused in every spelling when private addresses are allowed', async () => {
      const policy = createTargetPolicy({ builtIn: 'metadata', allowSetting: null });
      for (const [spelling, ipv4] of embeddedSpellings) {
        if (ipv4 !== '169.254.169.254') continue;
        await expect(policy.vet(spelling)).rejects.toThrow(
          `${spelling} reaches 169.254.169.254, which is a cloud metadata address`,
        );
      }
    });

    it('judges the carried address by the operator lists too', async () => {
      const policy = createTargetPolicy({ deny: ['10.0.0.0/8'] });
      await expect(policy.vet('64:ff9b:1::a00:1')).rejects.toThrow(
        '64:ff9b:1::a00:1 reaches 10.0.0.1, which is denied by CHECK_TARGETS_DENY (10.0.0.0/8)',
      );
      const allowed = createTargetPolicy({ allow: ['127.0.0.0/8'] });
      expect((await allowed.vet('::ffff:127.0.0.1')).addresses).toEqual([
        { address: '127.0.0.1', family: 4 },
      ]);
    });
  });
});
