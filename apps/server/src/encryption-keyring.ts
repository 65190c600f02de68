import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@checkline/core';
import { CursorSeal, generateEncryptionKey, Keyring, parseEncryptionKey } from '@checkline/core';
import type { Env } from './env.ts';

/** The file in `DATA_DIR` that holds the generated key while `ENCRYPTION_KEY` is unset. */
export const generatedKeyFileName = 'encryption.key';

function readOrCreateKeyFile(file: string): { key: Buffer; created: boolean } {
  try {
    return { key: parseEncryptionKey(readFileSync(file, 'utf8'), file), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = generateEncryptionKey();
  try {
    // `wx`: two processes starting at once never overwrite each other's key.
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return { key: parseEncryptionKey(key), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: parseEncryptionKey(readFileSync(file, 'utf8'), file), created: false };
  }
}

/**
 * The keyring the notification plugin encrypts secrets with: `ENCRYPTION_KEY` with the keys of
 * `ENCRYPTION_KEYS_OLD`; unset outside production, a key generated into `DATA_DIR` on first start
 * and reused afterwards (a process-long one for a `memory://` DATA_DIR), with a warning. The key
 * itself is never logged.
 */
export function encryptionKeyring(env: Env, logger: Logger): Keyring {
  if (env.ENCRYPTION_KEY) return new Keyring(env.ENCRYPTION_KEY, env.ENCRYPTION_KEYS_OLD);
  if (env.NODE_ENV === 'production') {
    throw new Error('ENCRYPTION_KEY is required when NODE_ENV=production');
  }
  if (env.DATA_DIR.startsWith('memory://')) {
    logger.warn(
      'ENCRYPTION_KEY is unset: stored secrets are encrypted with a key that lives only as long as this process (DATA_DIR is in memory)',
    );
    return new Keyring(randomBytes(32), env.ENCRYPTION_KEYS_OLD);
  }
  mkdirSync(env.DATA_DIR, { recursive: true });
  const file = join(env.DATA_DIR, generatedKeyFileName);
  const { key, created } = readOrCreateKeyFile(file);
  logger.warn(
    { file },
    `ENCRYPTION_KEY is unset: stored secrets are encrypted with the key ${created ? 'generated into' : 'read from'} ${file}; set ENCRYPTION_KEY (required in production) and keep it safe`,
  );
  return new Keyring(key, env.ENCRYPTION_KEYS_OLD);
}

/**
 * Page cursors are sealed under a key derived from the keyring for that purpose alone: servers
 * sharing ENCRYPTION_KEY accept each other's cursors, and a cursor made before a key rotation
 * still opens while the old key is in ENCRYPTION_KEYS_OLD.
 */
export function pageCursorSeal(keyring: Keyring): CursorSeal {
  return new CursorSeal(keyring.derivedKeys('page cursors'));
}
