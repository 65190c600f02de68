import type { Keyring } from './keyring.ts';
import { DecryptionError, isEncryptedValue } from './keyring.ts';
import { ANY_KEY } from './secret-field-paths.ts';

type Node = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Node => typeof value === 'object' && value !== null;

const childKeys = (node: Node): string[] =>
  Array.isArray(node) ? node.map((_, index) => String(index)) : Object.keys(node);

const childOf = (node: Node, key: string): unknown => (node as Record<string, unknown>)[key];

/** A deep copy of plain JSON data (what configs are). */
const copy = <T>(value: T): T => structuredClone(value);

/**
 * Visits every place a secret pattern (`*` for any key) reaches in `root`: `visit` gets the
 * container, the last key and the concrete path. Containers the pattern passes through must
 * exist; the last key may be absent.
 */
function forEachSecretSlot(
  root: unknown,
  pattern: readonly string[],
  visit: (parent: Node, key: string, path: string[]) => void,
): void {
  const walk = (node: unknown, depth: number, path: string[]) => {
    if (!isContainer(node)) return;
    const segment = pattern[depth]!;
    const keys = segment === ANY_KEY ? childKeys(node) : [segment];
    for (const key of keys) {
      if (depth === pattern.length - 1) visit(node, key, [...path, key]);
      else walk(childOf(node, key), depth + 1, [...path, key]);
    }
  };
  if (pattern.length > 0) walk(root, 0, []);
}

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

/**
 * Takes a layer as a caller sent it and the stored (decrypted) one: a secret left out keeps the
 * stored value at the same path, an explicit `null` clears it. Answers a new value.
 */
export function mergeSecrets(
  input: unknown,
  stored: unknown,
  secretPaths: readonly (readonly string[])[],
): unknown {
  const merged = copy(input);
  for (const pattern of secretPaths) {
    forEachSecretSlot(merged, pattern, (parent, key, path) => {
      const given = childOf(parent, key);
      const record = parent as Record<string, unknown>;
      if (given === null) {
        if (Array.isArray(parent)) record[key] = undefined;
        else delete record[key];
        return;
      }
      if (given !== undefined) return;
      const kept = path.reduce<unknown>(
        (node, segment) => (isContainer(node) ? childOf(node, segment) : undefined),
        stored,
      );
      if (kept !== undefined) record[key] = copy(kept);
    });
  }
  return merged;
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
