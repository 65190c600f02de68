import type { InputIssue } from '@checkline/core';
import { boundSecretFields, mergeStoredSecrets } from '@checkline/core';
import { DecryptionError, isEncryptedValue } from '@checkline/core';
import type { Keyring } from '@checkline/core';
import { ANY_KEY, secretFieldPaths } from '@checkline/notification-node';
import { omittedSecretPaths, openSecrets, sealSecrets, withoutSecrets } from './secret-values.ts';
import type { VersionedSchema } from '@checkline/notification-node';
import { readVersioned, VersionedReadError } from '@checkline/notification-node';

/** Where a layer is stored: names the AAD of its secrets, `{table}|{row}|{column}`. */
export interface LayerAddress {
  table: 'strategy_settings' | 'preferences';
  /** The row's key: the strategy id, or `{userId}/{strategyId}` for a preference. */
  row: string;
  column: 'config' | 'layoutConfig';
}

export const aadPrefixOf = (address: LayerAddress) =>
  `notification.${address.table}|${address.row}|${address.column}`;

/** A layer as stored in its row: the data (secrets encrypted) and the version it was written under. */
export interface StoredLayer {
  data: unknown;
  version: number;
}

export type LayerRead =
  | { state: 'empty' }
  /** `migrated`: `value` came from an older version; `stored` is it re-sealed under the current one. */
  | { state: 'ok'; value: unknown; migrated: boolean; stored: StoredLayer }
  /** Cannot be decrypted or brought to the current version; `message` never holds the values. */
  | { state: 'problem'; message: string };

/** The stored row's layer columns as a {@link StoredLayer}, or null when none is stored. */
export function storedLayer(data: unknown, version: number | null): StoredLayer | null {
  return data === null || data === undefined || version === null ? null : { data, version };
}

/** Decrypts, migrates step by step and validates a stored layer. */
export function readLayer(
  keyring: Keyring,
  versioned: VersionedSchema,
  address: LayerAddress,
  stored: StoredLayer | null,
): LayerRead {
  if (!stored) return { state: 'empty' };
  try {
    const data = openSecrets(stored.data, keyring, aadPrefixOf(address));
    const { value, migrated } = readVersioned(versioned, { version: stored.version, data });
    const resealed = migrated
      ? {
          data: sealSecrets(
            value,
            secretFieldPaths(versioned.schema),
            keyring,
            aadPrefixOf(address),
          ),
          version: versioned.version,
        }
      : stored;
    return { state: 'ok', value, migrated, stored: resealed };
  } catch (error) {
    if (error instanceof DecryptionError || error instanceof VersionedReadError) {
      return { state: 'problem', message: error.message };
    }
    throw error;
  }
}

export type LayerWrite =
  { ok: true; value: unknown; stored: StoredLayer } | { ok: false; issues: InputIssue[] };

function encryptedLookingPaths(value: unknown, path: string[] = []): string[] {
  if (isEncryptedValue(value)) return [path.join('.')];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    encryptedLookingPaths(item, [...path, key]),
  );
}

/**
 * Prepares a layer for storing: secrets left out keep the value `current` read (unless the
 * layer's destination changes: see `mergeStoredSecrets`), `null` clears one; the result is validated against the current schema version and its secrets sealed.
 * Over a stored layer that cannot be read, every secret must be given (a value or `null`), so
 * none is dropped unasked. `field` names the input field in issues (`config.primaryColor`).
 */
export function prepareLayerWrite(
  keyring: Keyring,
  versioned: VersionedSchema,
  address: LayerAddress,
  field: string,
  input: unknown,
  current: LayerRead,
): LayerWrite {
  const secretPaths = secretFieldPaths(versioned.schema);
  if (current.state === 'problem') {
    const omitted = omittedSecretPaths(input, secretPaths);
    if (omitted.length > 0) {
      return {
        ok: false,
        issues: omitted.map((path) => ({
          path: `${field}.${path}`,
          message: `The stored ${field} cannot be read (${current.message}); give this secret again, or null`,
        })),
      };
    }
  }
  const merge = mergeStoredSecrets(
    input,
    current.state === 'ok' ? current.value : undefined,
    boundSecretFields(versioned.schema),
  );
  const merged = merge.value;
  const lookalikes = encryptedLookingPaths(merged);
  if (lookalikes.length > 0) {
    return {
      ok: false,
      issues: lookalikes.map((path) => ({
        path: [field, path].filter(Boolean).join('.'),
        message: 'Looks like an encrypted value; send the plain value',
      })),
    };
  }
  const parsed = versioned.schema.safeParse(merged);
  if (!parsed.success) {
    const moved = merge.changedDestinations.map((path) => `${field}.${path}`).join(', ');
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => {
        const path = issue.path.map(String).join('.');
        return {
          path: [field, path].filter(Boolean).join('.'),
          message: merge.dropped.includes(path)
            ? `${moved} changed: a stored secret is kept only for the destination it was entered for; enter it again`
            : issue.message,
        };
      }),
    };
  }
  const data = sealSecrets(parsed.data, secretPaths, keyring, aadPrefixOf(address));
  return { ok: true, value: parsed.data, stored: { data, version: versioned.version } };
}

/**
 * A layer's value as procedures show it: secrets left out, and which of them are set (with
 * nothing stored, every secret outside arrays and records is listed as unset). A strategy
 * without the layer shows nothing.
 */
export function publicLayer(
  versioned: VersionedSchema | undefined,
  read: LayerRead,
): { values: Record<string, unknown> | null; secrets: Record<string, boolean> } {
  if (!versioned) return { values: null, secrets: {} };
  const secretPaths = secretFieldPaths(versioned.schema);
  if (read.state === 'ok') return withoutSecrets(read.value, secretPaths);
  if (read.state === 'problem') return { values: null, secrets: {} };
  const fixed = secretPaths.filter((path) => path.length > 0 && !path.includes(ANY_KEY));
  return {
    values: null,
    secrets: Object.fromEntries(fixed.map((path) => [path.join('.'), false])),
  };
}
