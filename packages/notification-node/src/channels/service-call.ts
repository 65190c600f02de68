import { deliveryResultOf } from '../delivery/http-answer.ts';
import type { Egress, EgressRequestInit } from '@checkline/net';
import type { DeliveryResult } from '../strategies/strategy.ts';
import { callFailure } from './call-failure.ts';

/**
 * A channel's one call to its service through the egress guard, classified by
 * `deliveryResultOf` (or `callFailure` when it throws). Services that say how long to wait in
 * a 429's JSON body instead of `Retry-After` pass `retryAfterSeconds` to read it from there.
 */
export async function callService(
  egress: Pick<Egress, 'fetch'>,
  service: string,
  url: string,
  init: EgressRequestInit,
  retryAfterSeconds?: (body: unknown) => unknown,
): Promise<DeliveryResult> {
  try {
    const response = await egress.fetch(url, init);
    const retryAfterMs = retryAfterSeconds && (await bodyRetryAfterMs(response, retryAfterSeconds));
    return await deliveryResultOf(response, service, {
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    });
  } catch (error) {
    return callFailure(service, error);
  }
}

/** The (fractional) seconds a 429's JSON body says to wait, in milliseconds. */
async function bodyRetryAfterMs(
  response: Response,
  retryAfterSeconds: (body: unknown) => unknown,
): Promise<number | undefined> {
  if (response.status !== 429) return undefined;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const seconds = retryAfterSeconds(body);
  return typeof seconds === 'number' && seconds >= 0 ? Math.ceil(seconds * 1_000) : undefined;
}
