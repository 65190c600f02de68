import { SECRET_CONFIG_KEYS } from './public-config.ts';

/**
 * Encrypts and decrypts secrets at rest; the server hands in the keyring the notification
 * plugin uses (`ENCRYPTION_KEY`), whose sealed values start `enc:`.
 */
export interface SecretSealer {
  encrypt(plaintext: string, aad: string): string;
  decrypt(stored: string, aad: string): string;
}

const isSealed = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('enc:');

/** The AAD names the field, so a sealed value copied to another field does not open. */
const aadOf = (key: string) => `healthcheck.health_checks.config.${key}`;

/** The config with each secret key encrypted (once); unchanged without a sealer. */
export function sealConfigSecrets(
  config: Record<string, unknown>,
  sealer: SecretSealer | undefined,
): Record<string, unknown> {
  if (!sealer) return config;
  const sealed = { ...config };
  for (const key of SECRET_CONFIG_KEYS) {
    const value = sealed[key];
    if (typeof value === 'string' && !isSealed(value))
      sealed[key] = sealer.encrypt(value, aadOf(key));
  }
  return sealed;
}

/** A secret as stored, in plain text; throws (naming the key only) when it cannot be opened. */
export function openConfigSecret(
  key: (typeof SECRET_CONFIG_KEYS)[number],
  stored: string,
  sealer: SecretSealer | undefined,
): string {
  if (!isSealed(stored)) return stored;
  if (!sealer) throw new Error(`The stored ${key} is encrypted, and no key is configured`);
  try {
    return sealer.decrypt(stored, aadOf(key));
  } catch {
    throw new Error(`The stored ${key} cannot be decrypted (ENCRYPTION_KEY changed?)`);
  }
}
