import type { InputIssue } from '@checkline/core/contract';
import type { TargetPolicy } from '@checkline/net';
import { TargetRefusedError } from '@checkline/net';

/** A place a check connects to: the config field naming it, and its host. */
export interface CheckTarget {
  /** Dot path inside the config, e.g. `url` or `host`. */
  path: string;
  host: string;
}

/** How long a save waits for a name to resolve before leaving the judgement to each run. */
const SAVE_RESOLVE_TIMEOUT_MS = 2_000;

/**
 * One issue per target the policy refuses, under `config.{path}`. A name that does not resolve
 * (yet) is no issue: the policy is applied again before every run.
 */
export async function refusedTargets(
  policy: TargetPolicy,
  targets: readonly CheckTarget[],
): Promise<InputIssue[]> {
  const issues: InputIssue[] = [];
  for (const target of targets) {
    try {
      await policy.vet(target.host, AbortSignal.timeout(SAVE_RESOLVE_TIMEOUT_MS));
    } catch (error) {
      if (error instanceof TargetRefusedError) {
        issues.push({ path: `config.${target.path}`, message: error.message });
      }
    }
  }
  return issues;
}

/** Throws the first refusal among `targets` (and DNS errors), before a run connects anywhere. */
export async function assertTargetsAllowed(
  policy: TargetPolicy,
  targets: readonly CheckTarget[],
  signal: AbortSignal,
): Promise<void> {
  for (const target of targets) await policy.vet(target.host, signal);
}
