import type { Keyring } from '@checkline/core';
import { DecryptionError, isEncryptedValue } from '@checkline/core';
import { forEachFieldSlot as forEachSecretSlot } from '@checkline/core';

type Node = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Node => typeof value === 'object' && value !== null;

const childOf = (node: Node, key: string): unknown => (node as Record<string, unknown>)[key];

/** A deep copy of plain JSON data (what configs are). */
const copy = <T>(value: T): T => structuredClone(value);

const aadFor = (prefix: string, path: readonly string[]) => `${prefix}|${path.join('.')}`;

/**
 * Encrypts the value at every secret path of `value` (a copy); `aadPrefix` names the table, row
 * and column, the path is appended. Values are stored as JSON, so any secret type round-trips.
 */
export function sealSecrets(
  value: unknown,
  secretPaths: readonly (readonly string[])[],
  keyring: Keyring,
  aadPrefix: string,
): unknown {
  const sealed = copy(value);
  for (const pattern of secretPaths) {
    forEachSecretSlot(sealed, pattern, (parent, key, path) => {
      const secret = childOf(parent, key);
      if (secret === undefined || secret === null) return;
      (parent as Record<string, unknown>)[key] = keyring.encrypt(
        JSON.stringify(secret),
        aadFor(aadPrefix, path),
      );
    });
  }
  return sealed;
}

/** Applies `change` to every encrypted string in `value` (a copy), with its concrete path. */
function mapEncrypted(
  value: unknown,
  change: (stored: string, path: string[]) => unknown,
): unknown {
  const walk = (node: unknown, path: string[]): unknown => {
    if (isEncryptedValue(node)) return change(node, path);
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, String(index)]));
    if (isContainer(node)) {
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [key, walk(item, [...path, key])]),
      );
    }
    return node;
  };
  return walk(value, []);
}

/**
 * Decrypts every encrypted value in stored data, whatever schema version wrote it (the path is
 * the AAD). Throws {@link DecryptionError} naming the path, never the value.
 */
export function openSecrets(stored: unknown, keyring: Keyring, aadPrefix: string): unknown {
  return mapEncrypted(stored, (sealed, path) => {
    try {
      return JSON.parse(keyring.decrypt(sealed, aadFor(aadPrefix, path))) as unknown;
    } catch (error) {
      const reason = error instanceof DecryptionError ? error.message : 'not JSON once decrypted';
      throw new DecryptionError(`secret ${path.join('.')} cannot be decrypted: ${reason}`);
    }
  });
}

/** Re-encrypts under the current key every value stored under an older one; counts them. */
export function reencryptSecrets(
  stored: unknown,
  keyring: Keyring,
  aadPrefix: string,
): { value: unknown; reencrypted: number } {
  let reencrypted = 0;
  const value = mapEncrypted(stored, (sealed, path) => {
    if (keyring.isCurrent(sealed)) return sealed;
    const aad = aadFor(aadPrefix, path);
    reencrypted += 1;
    return keyring.encrypt(keyring.decrypt(sealed, aad), aad);
  });
  return { value, reencrypted };
}

/** Dotted paths of the secrets `input` leaves out (neither a value nor `null`). */
export function omittedSecretPaths(
  input: unknown,
  secretPaths: readonly (readonly string[])[],
): string[] {
  const omitted: string[] = [];
  for (const pattern of secretPaths) {
    forEachSecretSlot(input, pattern, (parent, key, path) => {
      if (childOf(parent, key) === undefined) omitted.push(path.join('.'));
    });
  }
  return omitted;
}

/**
 * A layer as procedures show it: secret values left out, and a map from each secret's dotted
 * path to whether a value is set.
 */
export function withoutSecrets(
  value: unknown,
  secretPaths: readonly (readonly string[])[],
): { values: Record<string, unknown>; secrets: Record<string, boolean> } {
  const values = copy(value) as Record<string, unknown>;
  const secrets: Record<string, boolean> = {};
  for (const pattern of secretPaths) {
    forEachSecretSlot(values, pattern, (parent, key, path) => {
      const record = parent as Record<string, unknown>;
      secrets[path.join('.')] = record[key] !== undefined && record[key] !== null;
      if (Array.isArray(parent)) record[key] = null;
      else delete record[key];
    });
  }
  return { values, secrets };
}
