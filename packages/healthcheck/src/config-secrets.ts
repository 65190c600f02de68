import { SECRET_CONFIG_KEYS } from './public-config.ts';

/**
 * Encrypts and decrypts secrets at rest; the server hands in its core `Keyring`
 * (`ENCRYPTION_KEY`), whose sealed values start `enc:`.
 */
export interface SecretSealer {
  encrypt(plaintext: string, aad: string): string;
  decrypt(stored: string, aad: string): string;
  /** Whether a sealed value is under a key other than the current one (rotation reseals it). */
  needsReseal(stored: string): boolean;
  /** The value opened and sealed again under the current key; throws when no key opens it. */
  reseal(stored: string, aad: string): string;
}

export type SecretConfigKey = (typeof SECRET_CONFIG_KEYS)[number];

const isSealed = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('enc:');

/** The AAD names the row and the field, so a sealed value copied elsewhere does not open. */
export const configSecretAad = (checkId: string, key: SecretConfigKey) =>
  `healthcheck.health_checks|${checkId}|config|${key}`;

/** The config of check `checkId` with each secret key encrypted (once); unchanged without a sealer. */
export function sealConfigSecrets(
  config: Record<string, unknown>,
  checkId: string,
  sealer: SecretSealer | undefined,
): Record<string, unknown> {
  if (!sealer) return config;
  const sealed = { ...config };
  for (const key of SECRET_CONFIG_KEYS) {
    const value = sealed[key];
    if (typeof value === 'string' && !isSealed(value))
      sealed[key] = sealer.encrypt(value, configSecretAad(checkId, key));
  }
  return sealed;
}

/**
 * A secret as stored, in plain text; throws (naming the key only) when it cannot be opened, or
 * when it is sealed and the check it belongs to is not named.
 */
export function openConfigSecret(
  key: SecretConfigKey,
  stored: string,
  sealer: SecretSealer | undefined,
  checkId: string | undefined,
): string {
  if (!isSealed(stored)) return stored;
  if (!sealer) throw new Error(`The stored ${key} is encrypted, and no key is configured`);
  if (checkId === undefined) throw new Error(`The stored ${key} is encrypted for a saved check`);
  try {
    return sealer.decrypt(stored, configSecretAad(checkId, key));
  } catch {
    throw new Error(`The stored ${key} cannot be decrypted (ENCRYPTION_KEY changed?)`);
  }
}

/** A sealed secret of a stored config that no key opens at its place. */
export class ConfigSecretError extends Error {
  override name = 'ConfigSecretError';
}

/**
 * The stored config of check `checkId` with every sealed secret under an older key sealed again
 * under the current one, and how many were. A secret already under the current key is opened
 * all the same, so one copied from another check is found. Throws {@link ConfigSecretError}
 * naming the key and the sealer's reason (never the value) when one does not open.
 */
export function resealConfigSecrets(
  config: Record<string, unknown>,
  checkId: string,
  sealer: SecretSealer,
): { config: Record<string, unknown>; resealed: number } {
  const next = { ...config };
  let resealed = 0;
  for (const key of SECRET_CONFIG_KEYS) {
    const stored = next[key];
    if (!isSealed(stored)) continue;
    const aad = configSecretAad(checkId, key);
    try {
      if (sealer.needsReseal(stored)) {
        next[key] = sealer.reseal(stored, aad);
        resealed += 1;
      } else {
        sealer.decrypt(stored, aad);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'not decryptable';
      throw new ConfigSecretError(`config.${key}: ${reason}`);
    }
  }
  return { config: next, resealed };
}
