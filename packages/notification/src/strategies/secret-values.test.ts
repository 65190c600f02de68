import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Keyring } from '@checkline/core';
import { secret } from '@checkline/notification-node';
import { secretFieldPaths } from '@checkline/notification-node';
import { openSecrets, reencryptSecrets, sealSecrets, withoutSecrets } from './secret-values.ts';

const schema = z.object({
  host: z.string(),
  password: secret().optional(),
  port: secret(z.number()).optional(),
  headers: z.array(z.object({ name: z.string(), value: secret().optional() })),
  keys: z.record(z.string(), secret()),
});
const paths = secretFieldPaths(schema);
const prefix = 'notification.strategy_settings|p.s|config';
const plain = {
  host: 'mx',
  password: 'pw',
  port: 2525,
  headers: [{ name: 'a', value: 'va' }, { name: 'b' }],
  keys: { one: 'k1' },
};

describe('secret values', () => {
  describe('works', () => {
    it('seals every secret, nested, in arrays and records, and opens them again', () => {
      const keyring = Keyring.ephemeral();
      const sealed = sealSecrets(plain, paths, keyring, prefix) as typeof plain;
      expect(sealed.host).toBe('mx');
      expect(sealed.headers[0]!.name).toBe('a');
      expect(sealed.headers[1]).toEqual({ name: 'b' });
      for (const value of [
        sealed.password,
        sealed.port,
        sealed.headers[0]!.value,
        sealed.keys.one,
      ]) {
        expect(value).toMatch(/^enc:v1:/);
      }
      expect(JSON.stringify(sealed)).not.toMatch(/"pw"|2525|"va"|"k1"/);
      expect(openSecrets(sealed, keyring, prefix)).toEqual(plain);
      expect(plain.password).toBe('pw');
    });

    it('re-encrypts only values under an older key', () => {
      const oldKey = Buffer.alloc(32, 1);
      const newKey = Buffer.alloc(32, 2);
      const sealed = sealSecrets(plain, paths, new Keyring(oldKey), prefix);
      expect(() => reencryptSecrets(sealed, new Keyring(newKey), prefix)).toThrow(
        /neither ENCRYPTION_KEY/,
      );
      const rotating = new Keyring(newKey, [oldKey]);
      const rotated = reencryptSecrets(sealed, rotating, prefix);
      expect(rotated.reencrypted).toBe(4);
      expect(openSecrets(rotated.value, new Keyring(newKey), prefix)).toEqual(plain);
      expect(reencryptSecrets(rotated.value, rotating, prefix)).toEqual({
        value: rotated.value,
        reencrypted: 0,
      });
    });

    it('leaves secrets out of what is shown and says which are set', () => {
      expect(withoutSecrets({ ...plain, password: undefined }, paths)).toEqual({
        values: { host: 'mx', headers: [{ name: 'a' }, { name: 'b' }], keys: {} },
        secrets: {
          password: false,
          port: true,
          'headers.0.value': true,
          'headers.1.value': false,
          'keys.one': true,
        },
      });
    });
  });

  describe('rejects bad input', () => {
    it('names the path of a secret that does not decrypt, never its value', () => {
      const keyring = Keyring.ephemeral();
      const sealed = sealSecrets(plain, paths, keyring, prefix);
      const open = () => openSecrets(sealed, keyring, 'notification.strategy_settings|q.s|config');
      expect(open).toThrow(/^secret password cannot be decrypted: .*fails authentication/);
      expect(open).not.toThrow(/pw/);
    });
  });
});
