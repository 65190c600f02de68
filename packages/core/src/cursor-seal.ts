import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { badRequest } from './errors.ts';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The list a cursor pages and the caller it was given to: a cursor opens for both or not at all. */
export interface CursorBinding {
  /** The list's name, e.g. `catalog.systems`. */
  list: string;
  /** The caller, as {@link callerOfPrincipal} names it. */
  caller: string;
}

const invalidCursor = (message: string) =>
  badRequest('Invalid cursor', [{ path: 'cursor', message }]);

export const foreignCursor = () =>
  invalidCursor(
    'Not a cursor this server gave to this caller (altered, made by hand, or given to another caller); leave it out to start again',
  );

export const otherListCursor = () => invalidCursor('This cursor belongs to another list');

/**
 * Page cursors sealed with AES-256-GCM: the caller reads nothing of the position inside (which
 * names the last row of the page) and cannot alter it, and the caller is bound in as associated
 * data, so a cursor shown to someone else opens for nobody but its owner. Sealed with the first
 * key; every key opens, so cursors survive a key rotation until they are used.
 */
export class CursorSeal {
  readonly #keys: readonly Buffer[];

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0 || keys.some((key) => key.length !== KEY_BYTES)) {
      throw new Error(`cursor keys must be ${KEY_BYTES} bytes each, at least one`);
    }
    this.#keys = keys;
  }

  /** A seal with a random key that lives as long as the process (tests, no keyring). */
  static ephemeral(): CursorSeal {
    return new CursorSeal([randomBytes(KEY_BYTES)]);
  }

  seal(binding: CursorBinding, key: readonly string[]): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#keys[0]!, iv);
    cipher.setAAD(associatedData(binding.caller));
    const plaintext = JSON.stringify({ list: binding.list, key });
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * The key sealed in `cursor`, unchecked against its columns (the caller of this checks it):
   * BAD_REQUEST when the cursor was not sealed here for this caller, or pages another list.
   */
  open(binding: CursorBinding, cursor: string): unknown {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw foreignCursor();
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) throw foreignCursor();
    const plaintext = this.#keys
      .map((key) => decrypt(key, bytes, binding.caller))
      .find((opened) => opened !== undefined);
    if (plaintext === undefined) throw foreignCursor();
    const { list, key } = JSON.parse(plaintext) as { list: string; key: unknown };
    if (list !== binding.list) throw otherListCursor();
    return key;
  }
}

const associatedData = (caller: string) => Buffer.from(`checkline page cursor\0${caller}`, 'utf8');

function decrypt(key: Buffer, bytes: Buffer, caller: string): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(associatedData(caller));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
