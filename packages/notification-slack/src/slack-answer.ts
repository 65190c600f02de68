import type { DeliveryResult } from '@checkline/notification-node';
import { deliveryResultOf } from '@checkline/notification-node';

const SERVICE = 'Slack';

/** `ok: false` errors worth another attempt; every other one will not go away by retrying. */
const RETRYABLE_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/**
 * What Slack's answer to a Web API call amounts to. Slack answers most failures with HTTP 200
 * and `{ ok: false, error }`: `ratelimited` and its own outages are retried (after
 * `Retry-After`), the rest (`invalid_auth`, `channel_not_found`, `token_revoked`, ...) fail at
 * once. Non-2xx answers (429 with `Retry-After`, 5xx) are read as every channel reads them.
 */
export async function slackResult(response: Response): Promise<DeliveryResult> {
  if (!response.ok) return deliveryResultOf(response, SERVICE);
  const body = (await response.json().catch(() => undefined)) as
    { ok?: unknown; error?: unknown } | undefined;
  if (body?.ok === true) return { success: true };
  const code = typeof body?.error === 'string' ? body.error.slice(0, 100) : 'unreadable answer';
  const error = `${SERVICE} answered ${code}`;
  if (!RETRYABLE_ERRORS.has(code)) return { success: false, error, permanent: true };
  const seconds = Number(response.headers.get('retry-after'));
  return {
    success: false,
    error,
    ...(Number.isFinite(seconds) && seconds > 0 && { retryAfterMs: Math.ceil(seconds * 1_000) }),
  };
}
