import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CursorSeal, Keyring } from '@checkline/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../test/support/memory-logger.ts';
import { encryptionKeyring, generatedKeyFileName, pageCursorSeal } from './encryption-keyring.ts';
import { loadEnv } from './env.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'checkline-keyring-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const aad = 'notification.strategy_settings|x.y|config|password';

describe('encryptionKeyring', () => {
  describe('works', () => {
    it('generates a key into DATA_DIR (mode 0600) on first start and reuses it, warning with the file', () => {
      const env = loadEnv({ NODE_ENV: 'development', DATA_DIR: dataDir });
      const first = createMemoryLogger();
      const keyring = encryptionKeyring(env, first.logger);
      const file = join(dataDir, generatedKeyFileName);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8').trim();
      expect(first.lines.join('\n')).toContain(`generated into ${file}`);
      expect(first.lines.join('\n')).not.toContain(key);

      const again = createMemoryLogger();
      const reused = encryptionKeyring(env, again.logger);
      expect(reused.currentKeyId).toBe(keyring.currentKeyId);
      expect(reused.decrypt(keyring.encrypt('hunter2', aad), aad)).toBe('hunter2');
      expect(again.lines.join('\n')).toContain(`read from ${file}`);
    });

    it('uses ENCRYPTION_KEY with the old keys, without touching DATA_DIR or warning', () => {
      const old = Keyring.ephemeral();
      const oldKey = Buffer.alloc(32, 7);
      const oldKeyring = new Keyring(oldKey);
      const env = loadEnv({
        DATA_DIR: join(dataDir, 'unused'),
        ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
        ENCRYPTION_KEYS_OLD: oldKey.toString('base64'),
      });
      const { logger, lines } = createMemoryLogger();
      const keyring = encryptionKeyring(env, logger);
      expect(keyring.currentKeyId).toBe(new Keyring(Buffer.alloc(32, 9)).currentKeyId);
      expect(keyring.decrypt(oldKeyring.encrypt('hunter2', aad), aad)).toBe('hunter2');
      expect(() => keyring.decrypt(old.encrypt('x', aad), aad)).toThrow(/neither ENCRYPTION_KEY/);
      expect(lines).toEqual([]);
      expect(() => statSync(join(dataDir, 'unused'))).toThrow();
    });

    it('makes a process-long key for a memory:// DATA_DIR, with a warning', () => {
      const { logger, lines } = createMemoryLogger();
      const one = encryptionKeyring(loadEnv({ DATA_DIR: 'memory://' }), logger);
      const two = encryptionKeyring(loadEnv({ DATA_DIR: 'memory://' }), logger);
      expect(one.currentKeyId).not.toBe(two.currentKeyId);
      expect(lines[0]).toMatch(/ENCRYPTION_KEY is unset.*DATA_DIR is in memory/);
    });
  });
});

describe('pageCursorSeal', () => {
  const binding = { list: 'catalog.systems', caller: 'application:a' };

  it('opens cursors of another server with the same key, and of the key before a rotation', () => {
    const [oldKey, newKey] = [Keyring.ephemeral(), Keyring.ephemeral()];
    const oldBase64 = Buffer.from(oldKey.derivedKeys('x')[0]!).toString('base64');
    const newBase64 = Buffer.from(newKey.derivedKeys('x')[0]!).toString('base64');
    const before = loadEnv({ NODE_ENV: 'production', ENCRYPTION_KEY: oldBase64 });
    const after = loadEnv({
      NODE_ENV: 'production',
      ENCRYPTION_KEY: newBase64,
      ENCRYPTION_KEYS_OLD: oldBase64,
    });
    const { logger } = createMemoryLogger();
    const cursor = pageCursorSeal(encryptionKeyring(before, logger)).seal(binding, ['a']);
    expect(pageCursorSeal(encryptionKeyring(before, logger)).open(binding, cursor)).toEqual(['a']);
    expect(pageCursorSeal(encryptionKeyring(after, logger)).open(binding, cursor)).toEqual(['a']);
  });

  it('refuses cursors of a server with another key, and never seals with the encryption key itself', () => {
    const { logger } = createMemoryLogger();
    const keyring = encryptionKeyring(
      loadEnv({ NODE_ENV: 'production', ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }),
      logger,
    );
    const cursor = pageCursorSeal(Keyring.ephemeral()).seal(binding, ['a']);
    expect(() => pageCursorSeal(keyring).open(binding, cursor)).toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
    const withRawKey = new CursorSeal([Buffer.alloc(32, 7)]).seal(binding, ['a']);
    expect(() => pageCursorSeal(keyring).open(binding, withRawKey)).toThrow(
      expect.objectContaining({ code: 'BAD_REQUEST' }),
    );
  });
});
