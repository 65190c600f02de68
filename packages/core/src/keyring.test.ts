import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DecryptionError,
  generateEncryptionKey,
  isEncryptedValue,
  keyIdOf,
  Keyring,
  parseEncryptionKey,
} from './keyring.ts';

const aad = 'notification.strategy_settings|test-channel.pager|config|password';
const key = () => randomBytes(32);

describe('Keyring', () => {
  describe('works', () => {
    it('round-trips a value, naming the key in a self-describing string', () => {
      const current = key();
      const keyring = new Keyring(current);
      const stored = keyring.encrypt('hunter2', aad);
      expect(stored).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
      expect(stored.split(':')[2]).toBe(keyIdOf(current));
      expect(stored).not.toContain('hunter2');
      expect(isEncryptedValue(stored)).toBe(true);
      expect(keyring.decrypt(stored, aad)).toBe('hunter2');
    });

    it('uses a fresh IV for every value', () => {
      const keyring = Keyring.ephemeral();
      const first = keyring.encrypt('same', aad);
      const second = keyring.encrypt('same', aad);
      expect(first).not.toBe(second);
      expect(first.split(':')[3]).not.toBe(second.split(':')[3]);
    });

    it('decrypts under an old key and knows which values are current', () => {
      const old = key();
      const stored = new Keyring(old).encrypt('hunter2', aad);
      const rotated = new Keyring(key(), [old]);
      expect(rotated.decrypt(stored, aad)).toBe('hunter2');
      expect(rotated.isCurrent(stored)).toBe(false);
      expect(rotated.isCurrent(rotated.encrypt('x', aad))).toBe(true);
    });

    it('reseals a value under an old key under the current one, at the same place only', () => {
      const old = key();
      const stored = new Keyring(old).encrypt('hunter2', aad);
      const rotated = new Keyring(key(), [old]);
      expect(rotated.needsReseal(stored)).toBe(true);
      expect(rotated.needsReseal('hunter2')).toBe(false);
      const resealed = rotated.reseal(stored, aad);
      expect(resealed.split(':')[2]).toBe(rotated.currentKeyId);
      expect(rotated.needsReseal(resealed)).toBe(false);
      expect(rotated.decrypt(resealed, aad)).toBe('hunter2');
      expect(() => rotated.reseal(stored, `${aad}x`)).toThrow(DecryptionError);
    });

    it('round-trips an empty string and unicode', () => {
      const keyring = Keyring.ephemeral();
      expect(keyring.decrypt(keyring.encrypt('', aad), aad)).toBe('');
      expect(keyring.decrypt(keyring.encrypt('pässwörd 🔑', aad), aad)).toBe('pässwörd 🔑');
    });

    it('parses a generated key and refuses a key of the wrong length', () => {
      expect(parseEncryptionKey(generateEncryptionKey())).toHaveLength(32);
      expect(() =>
        parseEncryptionKey(randomBytes(16).toString('base64'), 'ENCRYPTION_KEY'),
      ).toThrow('ENCRYPTION_KEY must be 32 bytes in base64 (got 16 bytes)');
      expect(() => parseEncryptionKey('not base64 at all!')).toThrow('must be 32 bytes');
    });
  });

  describe('rejects bad input', () => {
    const keyring = Keyring.ephemeral();
    const stored = keyring.encrypt('hunter2', aad);

    it('refuses a value whose ciphertext was altered', () => {
      const parts = stored.split(':');
      const sealed = Buffer.from(parts[4]!, 'base64url');
      sealed[0] = sealed[0]! ^ 1;
      parts[4] = sealed.toString('base64url');
      expect(() => keyring.decrypt(parts.join(':'), aad)).toThrow(DecryptionError);
      expect(() => keyring.decrypt(parts.join(':'), aad)).toThrow('fails authentication');
    });

    it('refuses a value moved to another row or field (AAD)', () => {
      expect(() =>
        keyring.decrypt(stored, 'notification.strategy_settings|other.pager|config|password'),
      ).toThrow('fails authentication');
    });

    it('refuses a value under an unknown key, naming only its id', () => {
      const foreign = new Keyring(key());
      const value = foreign.encrypt('hunter2', aad);
      expect(() => keyring.decrypt(value, aad)).toThrow(
        `encrypted under key ${foreign.currentKeyId}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_OLD`,
      );
    });

    it.each(['hunter2', 'enc:v1:zz:aa:bb', '', 'enc:v1:abcdef12:short:xx'])(
      'refuses %j as not encrypted',
      (value) => {
        expect(isEncryptedValue(value)).toBe(false);
        expect(() => keyring.decrypt(value, aad)).toThrow('not an encrypted value');
      },
    );
  });
});
