import { TargetRefusedError } from '@checkline/net';
import { unreachable } from '../delivery/http-answer.ts';
import type { Egress } from '@checkline/net';
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

/**
 * Issues of a host (not a URL: an SMTP server, say) at `path` as a layer is saved: one when the
 * egress guard refuses it; a name that does not resolve yet is left to each attempt.
 */
export async function hostIssues(
  egress: Pick<Egress, 'vetHost'>,
  path: string,
  host: string | undefined,
): Promise<LayerIssue[]> {
  if (!host) return [];
  try {
    await egress.vetHost(host, { timeoutMs: SAVE_RESOLVE_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof TargetRefusedError) return [{ path, message: error.message }];
  }
  return [];
}

/**
 * Issues of every URL field a strategy calls out to, as a layer is saved: `fields` names them
 * per layer (`{ config: ['apiBaseUrl'], userConfig: ['serverUrl'] }`).
 */
export async function layerUrlIssues(
  egress: Pick<Egress, 'vet'>,
  layer: ValidatedLayer<unknown, unknown, unknown>,
  fields: Partial<Record<ValidatedLayer<unknown, unknown, unknown>['layer'], readonly string[]>>,
): Promise<LayerIssue[]> {
  const value = (layer.value ?? {}) as Record<string, unknown>;
  const issues = await Promise.all(
    (fields[layer.layer] ?? []).map((field) => {
      const url = value[field];
      return urlIssues(egress, field, typeof url === 'string' ? url : undefined);
    }),
  );
  return issues.flat();
}

/** A strategy's `validateConfig` when its only check is the user-given URL in `field`. */
export function userUrlIssues(
  egress: Pick<Egress, 'vet'>,
  layer: ValidatedLayer<unknown, unknown, unknown>,
  field: string,
): Promise<LayerIssue[]> {
  return layerUrlIssues(egress, layer, { userConfig: [field] });
}
