import type { TargetPolicy } from '@checkline/net';
import type { CheckOutcome, HealthCheckType } from '../check-type.ts';
import {
  checkTypeExtensionFor,
  createHealthCheckTypeRegistry,
  parseCheckConfig,
} from '../check-type.ts';
import { runCheck } from '../run-check.ts';
import { loopbackTargets } from './loopback-targets.ts';

export interface CheckTypeHarness {
  /** The type's id as the server would qualify it, under the plugin id `test`. */
  qualifiedId: string;
  /**
   * The config as a save stores it: validated by the type's strict schema, defaults filled, its
   * targets judged by the policy. Throws the API's BAD_REQUEST (with its issues) otherwise.
   */
  save(config: unknown): Promise<Record<string, unknown>>;
  /**
   * One run as the scheduler does it: the targets judged first, the type's run under the check's
   * deadline; whatever goes wrong is a `fail` outcome.
   */
  run(
    config: Record<string, unknown>,
    options?: { timeoutMs?: number; cancel?: AbortSignal },
  ): Promise<CheckOutcome>;
}

/**
 * A check type registered the way the server registers it (strict config, qualified id) and
 * saved and run through the server's own code, against `targets` (loopback only by default).
 */
export function checkTypeHarness<TConfig>(
  type: HealthCheckType<TConfig>,
  { targets = loopbackTargets() }: { targets?: TargetPolicy } = {},
): CheckTypeHarness {
  const registry = createHealthCheckTypeRegistry();
  const { qualifiedId } = checkTypeExtensionFor(registry, 'test').register(type);
  return {
    qualifiedId,
    save: (config) => parseCheckConfig(registry, targets, qualifiedId, config),
    run: (config, { timeoutMs = 5_000, cancel } = {}) =>
      runCheck(
        registry,
        { type: qualifiedId, config, timeoutMs },
        { targets, ...(cancel && { cancel }) },
      ),
  };
}
