import type { DeliveryResult } from '../strategies/strategy.ts';

const MAX_ERROR_BODY = 300;

/**
 * A `Retry-After` value (delay seconds or an HTTP date) in milliseconds from `now`; undefined
 * when absent or unreadable, never negative.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1_000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** HTTP statuses worth another attempt: the service is busy, overloaded or failed for now. */
export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 425 || status === 429 || status >= 500;

/**
 * What a channel's HTTP call to its service amounts to: 2xx sent; 408, 425, 429 and 5xx retried
 * (no sooner than `Retry-After` says, or `retryAfterMs` when the service says it in its body);
 * any other status permanent, a 3xx saying that redirects are not followed. The error names the service and status and quotes the start of
 * the answer, which services use for their reason (it never holds our secrets).
 */
export async function deliveryResultOf(
  response: Response,
  service: string,
  options: { retryAfterMs?: number; now?: number } = {},
): Promise<DeliveryResult> {
  if (response.ok) {
    await response.body?.cancel();
    return { success: true };
  }
  if (response.status >= 300 && response.status < 400) {
    // The egress guard follows no redirect: the target has moved, and waiting will not help.
    await response.body?.cancel();
    return {
      success: false,
      error: `${service} answered HTTP ${response.status}: redirects are not followed`,
      permanent: true,
    };
  }
  const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim();
  const reason = text ? `: ${text.slice(0, MAX_ERROR_BODY)}` : '';
  const error = `${service} answered HTTP ${response.status}${reason}`;
  if (!isRetryableStatus(response.status)) return { success: false, error, permanent: true };
  const retryAfterMs =
    parseRetryAfter(response.headers.get('retry-after'), options.now) ?? options.retryAfterMs;
  return { success: false, error, ...(retryAfterMs !== undefined && { retryAfterMs }) };
}

/** A failure to reach the service at all (refused, reset, timed out): worth another attempt. */
export function unreachable(service: string, error: unknown): DeliveryResult {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  const detail =
    cause instanceof Error
      ? `${'code' in cause && typeof cause.code === 'string' ? `${cause.code} ` : ''}${cause.message}`
      : String(cause);
  return { success: false, error: `${service} could not be reached: ${detail}` };
}
