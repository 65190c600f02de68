import { describe, expect, it } from 'vitest';
import { parseTargetList, parseTargetRule, targetRules } from './target-rules.ts';

describe('target rules', () => {
  describe('works', () => {
    it('reads ranges, single addresses and host names', () => {
      expect(parseTargetRule('10.0.0.0/8')).toMatchObject({ kind: 'range', entry: '10.0.0.0/8' });
      expect(parseTargetRule(' 192.168.1.5 ')).toMatchObject({
        kind: 'range',
        entry: '192.168.1.5',
      });
      expect(parseTargetRule('fd00::/8')).toMatchObject({ kind: 'range' });
      expect(parseTargetRule('[::1]')).toMatchObject({ kind: 'range' });
      expect(parseTargetRule('Status.Example.COM.')).toMatchObject({
        kind: 'name',
        name: 'status.example.com',
        subdomains: false,
      });
      expect(parseTargetRule('*.corp.example')).toMatchObject({
        kind: 'name',
        name: 'corp.example',
        subdomains: true,
      });
    });

    it('turns an IPv4-mapped range into the IPv4 range it stands for', () => {
      const rule = parseTargetRule('::ffff:169.254.0.0/112');
      expect(rule?.kind === 'range' && rule.range.map(String)).toEqual(['169.254.0.0', '16']);
    });

    it('splits a comma-separated list, skipping empty entries', () => {
      const { rules, invalid } = parseTargetList('10.0.0.0/8, ,db.internal,');
      expect(rules.map((rule) => rule.entry)).toEqual(['10.0.0.0/8', 'db.internal']);
      expect(invalid).toEqual([]);
    });
  });

  describe('rejects bad input', () => {
    it('names every entry that is no address, range or host name', () => {
      const entries = [
        '10.0.0.0/33',
        '300.1.1.1',
        '10',
        '0x7f.1',
        'two words',
        'a..b',
        'http://x/',
        '*',
      ];
      expect(parseTargetList(entries).invalid).toEqual(entries);
      expect(() => targetRules('10.0.0.0/8,nope!,1.2.3', 'CHECK_TARGETS_DENY')).toThrow(
        'CHECK_TARGETS_DENY: not an address, range or host name: nope!, 1.2.3',
      );
    });
  });
});
