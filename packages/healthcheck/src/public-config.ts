import type { BoundSecretFields } from '@checkline/core';
import { mergeStoredSecrets } from '@checkline/core';

/** What stands in for a header value in every answer. */
const REDACTED = '[redacted]';

/** Top-level config keys that hold a secret (the postgres password): never in an answer. */
export const SECRET_CONFIG_KEYS = ['password'] as const;

/**
 * A check's config as answers show it: header values are left out (they often carry
 * credentials, such as `Authorization`); the names stay so people can see what is sent.
 * Secret keys are left out altogether. Writing a config replaces it whole, except that a secret
 * key left out keeps its stored value; a client that changes headers sends them again.
 */
export function publicConfig(config: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...config };
  for (const key of SECRET_CONFIG_KEYS) delete shown[key];
  const headers = config.headers;
  if (typeof headers !== 'object' || headers === null) return shown;
  return {
    ...shown,
    headers: Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED])),
  };
}

/**
 * A new config sent without its secrets keeps the stored ones (only for the same type), unless
 * it moves the check to another destination (host, port): a secret is only ever sent where it
 * was entered for, so it must then be given again. `fields` are the type's marked fields.
 */
export function keepStoredSecrets(
  sent: unknown,
  stored: Record<string, unknown>,
  fields: BoundSecretFields,
): unknown {
  if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) return sent;
  return mergeStoredSecrets(sent, stored, fields).value;
}
