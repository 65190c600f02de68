import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretSealer } from '../config-secrets.ts';

const SEALED = /^enc:test:([0-9a-f]{8}):([A-Za-z0-9_-]+):([A-Za-z0-9_-]+)$/;

const idOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/**
 * A real AES-256-GCM sealer with a current key and older ones, stored as
 * `enc:test:<keyId>:<iv>:<sealed>`: healthcheck tests seal and rotate with it without the
 * notification plugin, whose keyring the server hands in.
 */
export class TestSealer implements SecretSealer {
  readonly currentKeyId: string;
  readonly #current: Buffer;
  readonly #byId = new Map<string, Buffer>();

  constructor(current: Buffer = randomBytes(32), old: readonly Buffer[] = []) {
    this.#current = current;
    this.currentKeyId = idOf(current);
    for (const key of [...old, current]) this.#byId.set(idOf(key), key);
  }

  encrypt(plaintext: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv).setAAD(Buffer.from(aad));
    const sealed = Buffer.concat([
      cipher.update(plaintext, 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `enc:test:${this.currentKeyId}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  decrypt(stored: string, aad: string): string {
    const [, keyId, iv, sealedText] = SEALED.exec(stored) ?? [];
    if (!keyId || !iv || !sealedText) throw new Error('not a sealed value');
    const key = this.#byId.get(keyId);
    if (!key) throw new Error(`sealed under unknown key ${keyId}`);
    const sealed = Buffer.from(sealedText, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        .setAAD(Buffer.from(aad))
        .setAuthTag(sealed.subarray(-16));
      return Buffer.concat([decipher.update(sealed.subarray(0, -16)), decipher.final()]).toString();
    } catch {
      throw new Error(`value under key ${keyId} fails authentication`);
    }
  }

  needsReseal(stored: string): boolean {
    const keyId = SEALED.exec(stored)?.[1];
    return keyId !== undefined && keyId !== this.currentKeyId;
  }

  reseal(stored: string, aad: string): string {
    return this.encrypt(this.decrypt(stored, aad), aad);
  }
}
