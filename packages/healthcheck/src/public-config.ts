/** What stands in for a header value in every answer. */
export const REDACTED = '[redacted]';

/**
 * A check's config as answers show it: header values are left out (they often carry
 * credentials, such as `Authorization`); the names stay so people can see what is sent.
 * Writing a config replaces it whole, so a client that changes it sends the headers again.
 */
export function publicConfig(config: Record<string, unknown>): Record<string, unknown> {
  const headers = config.headers;
  if (typeof headers !== 'object' || headers === null) return config;
  return {
    ...config,
    headers: Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED])),
  };
}
