import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SECRET_LENGTH,
  generateApiKey,
  hashApiKey,
  newApplicationId,
  parseApiKey,
  randomBase62,
  sameHash,
} from './api-key.ts';

describe('API keys', () => {
  it('carry their application id, a ck_ prefix and 43 base62 characters', () => {
    const id = newApplicationId();
    const { key, applicationId } = generateApiKey(id);
    expect(applicationId).toBe(id);
    expect(key).toMatch(new RegExp(`^ck_${id}_[A-Za-z0-9]{${SECRET_LENGTH}}$`));
    expect(generateApiKey(id).key).not.toBe(key);
  });

  it('parse back to their application id, whatever the id', () => {
    fc.assert(
      fc.property(fc.uuid({ version: 4 }), (id) => {
        expect(parseApiKey(generateApiKey(id).key)).toBe(id);
      }),
    );
  });

  it('parse nothing else, and never throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (value) => {
        const parsed = parseApiKey(value);
        if (parsed !== undefined) expect(value).toMatch(/^ck_[0-9a-f-]{36}_[A-Za-z0-9]{32,128}$/);
      }),
    );
    const id = newApplicationId();
    for (const bad of [
      `ck_${id}_short`,
      `ck_${id.toUpperCase()}_${'a'.repeat(40)}`,
      `ck_${id}_${'a'.repeat(40)}!`,
      `xk_${id}_${'a'.repeat(40)}`,
      `ck_${id}_${'a'.repeat(129)}`,
    ]) {
      expect(parseApiKey(bad), bad).toBeUndefined();
    }
  });

  it('are stored as SHA-256 and compared in constant time', () => {
    const { key } = generateApiKey(newApplicationId());
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(-SECRET_LENGTH));
    expect(sameHash(hash, hashApiKey(key))).toBe(true);
    expect(sameHash(hash, hashApiKey(`${key}x`))).toBe(false);
    expect(sameHash(hash, '')).toBe(false);
  });
});

describe('randomBase62', () => {
  it('draws every character about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2_000);
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // With modulo bias the first 8 characters would come up about 25% more often.
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1_700);
      expect(count).toBeLessThan(2_300);
    }
  });
});
