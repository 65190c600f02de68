import { TargetRefusedError } from '@checkline/healthcheck';
import { unreachable } from '../delivery/http-answer.ts';
import type { Egress } from '../egress/egress.ts';
import type { DeliveryResult, LayerIssue, ValidatedLayer } from '../strategies/strategy.ts';

/**
 * A channel's call that threw: an address the egress guard refuses fails for good (it will not
 * become public by waiting), anything else (refused, reset, timed out) is worth another attempt.
 */
export function callFailure(service: string, error: unknown): DeliveryResult {
  if (error instanceof TargetRefusedError) {
    return { success: false, permanent: true, error: `${service}: ${error.message}` };
  }
  return unreachable(service, error);
}

/** How long a save waits for a URL's name to resolve before leaving it to each attempt. */
const SAVE_RESOLVE_TIMEOUT_MS = 2_000;

/**
 * Issues of a user-given URL at `path` as a layer is saved: one when the egress guard refuses
 * it (private address, bad scheme); a name that does not resolve yet is left to each attempt.
 */
export async function urlIssues(
  egress: Pick<Egress, 'vet'>,
  path: string,
  url: string | undefined,
): Promise<LayerIssue[]> {
  if (!url) return [];
  try {
    await egress.vet(url, { timeoutMs: SAVE_RESOLVE_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof TargetRefusedError) return [{ path, message: error.message }];
  }
  return [];
}

/** A strategy's `validateConfig` when its only check is the user-given URL in `field`. */
export async function userUrlIssues<K extends string>(
  egress: Pick<Egress, 'vet'>,
  layer: ValidatedLayer<unknown, Partial<Record<K, string>>, unknown>,
  field: K,
): Promise<LayerIssue[]> {
  return layer.layer === 'userConfig' ? urlIssues(egress, field, layer.value[field]) : [];
}
