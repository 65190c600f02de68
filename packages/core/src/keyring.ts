import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'enc:v1:';
const ENCRYPTED = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/** Why a stored value could not be decrypted; never carries the value or a key. */
export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** The first 8 hex digits of the key's SHA-256: names the key in stored values, reveals nothing. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A 32-byte key from its base64 form; `label` names it in the error. */
export function parseEncryptionKey(base64: string, label = 'encryption key'): Buffer {
  const trimmed = base64.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new Error(`${label} must be ${KEY_BYTES} bytes in base64 (got ${key.length} bytes)`);
  }
  return key;
}

/** A fresh random key in base64, as `ENCRYPTION_KEY` takes it. */
export function generateEncryptionKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/** Whether `value` has the shape of a value {@link Keyring.encrypt} wrote. */
export function isEncryptedValue(value: unknown): value is string {
  return typeof value === 'string' && ENCRYPTED.test(value);
}

/**
 * AES-256-GCM under a current key, with older keys kept for decryption. A stored value is
 * `enc:v1:<keyId>:<iv>:<ciphertext+tag>` (base64url); the AAD names where the value lives, so a
 * value copied to another row or field does not decrypt.
 */
export class Keyring {
  readonly currentKeyId: string;
  readonly #current: Buffer;
  readonly #byId = new Map<string, Buffer>();
  /** Keys derived for a purpose, by purpose (the keys never change after construction). */
  readonly #derived = new Map<string, readonly Buffer[]>();

  constructor(current: Buffer, old: readonly Buffer[] = []) {
    if (current.length !== KEY_BYTES) throw new Error(`the key must be ${KEY_BYTES} bytes`);
    this.#current = current;
    this.currentKeyId = keyIdOf(current);
    for (const key of old) {
      if (key.length !== KEY_BYTES) throw new Error(`an old key must be ${KEY_BYTES} bytes`);
      this.#byId.set(keyIdOf(key), key);
    }
    this.#byId.set(this.currentKeyId, current);
  }

  /** A keyring with a random key that lives as long as the process (tests, `memory://`). */
  static ephemeral(): Keyring {
    return new Keyring(randomBytes(KEY_BYTES));
  }

  encrypt(plaintext: string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const sealed = Buffer.concat([
      cipher.update(plaintext, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${PREFIX}${this.currentKeyId}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** Throws {@link DecryptionError} for a malformed, tampered or misplaced value or an unknown key. */
  decrypt(stored: string, aad: string): string {
    const match = ENCRYPTED.exec(stored);
    if (!match) throw new DecryptionError('not an encrypted value');
    const [, keyId, ivText, sealedText] = match as unknown as [string, string, string, string];
    const key = this.#byId.get(keyId);
    if (!key) {
      throw new DecryptionError(
        `encrypted under key ${keyId}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_OLD`,
      );
    }
    const sealed = Buffer.from(sealedText, 'base64url');
    if (sealed.length < TAG_BYTES) throw new DecryptionError('not an encrypted value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const body = sealed.subarray(0, sealed.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new DecryptionError(
        `value under key ${keyId} fails authentication (altered, or moved from another field)`,
      );
    }
  }

  /**
   * Keys for `purpose` (signing links, say) derived with HKDF-SHA256 from the current key, then
   * from the old ones: sign with the first, accept any. The encryption keys themselves never
   * sign anything, and no derived key is stored (they are kept in memory: a delivery signs its
   * unsubscribe link, and HKDF per key per message would be spent again and again).
   */
  derivedKeys(purpose: string): readonly Buffer[] {
    let keys = this.#derived.get(purpose);
    if (!keys) {
      const derive = (key: Buffer) =>
        Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `checkline ${purpose}`, KEY_BYTES));
      const older = [...this.#byId.values()].filter((key) => key !== this.#current);
      keys = [this.#current, ...older].map(derive);
      this.#derived.set(purpose, keys);
    }
    return keys;
  }

  /** Whether a stored value is already under the current key (rotation skips it). */
  isCurrent(stored: string): boolean {
    return ENCRYPTED.exec(stored)?.[1] === this.currentKeyId;
  }

  /** Whether `stored` is an encrypted value under a key other than the current one. */
  needsReseal(stored: string): boolean {
    return isEncryptedValue(stored) && !this.isCurrent(stored);
  }

  /** `stored` decrypted and encrypted again under the current key, at the same place. */
  reseal(stored: string, aad: string): string {
    return this.encrypt(this.decrypt(stored, aad), aad);
  }
}
