import type { CheckOutcome } from './check-type.ts';

type Outcome = CheckOutcome['status'];

/** Where a check stands for alerting, as stored on its row. */
export interface AlertState {
  /** The outcome the system's status counts; null until one reached its threshold. */
  alertStatus: Outcome | null;
  /** The latest outcome, and how many runs in a row were on its side (failing or working). */
  streakStatus: Outcome | null;
  streakCount: number;
}

export interface AlertThresholds {
  failuresBeforeAlert: number;
  recoveriesBeforeResolve: number;
}

interface AdvancedAlertState extends AlertState {
  /** The outcome has not reached its threshold: the alert status still says otherwise. */
  pending: boolean;
}

/** A warning is a working target: only failing and working are counted against thresholds. */
const failing = (outcome: Outcome) => outcome === 'fail';

/**
 * Counts one more outcome. A change between failing and working takes its threshold of runs in
 * a row (`failuresBeforeAlert` to fail, `recoveriesBeforeResolve` to recover); a change within
 * a side (pass to warn and back) counts at once. With both thresholds at 1 the alert status is
 * always the latest outcome. A new check's first failures wait for their threshold too (the
 * system stays `unknown`), while its first working outcome counts at once.
 */
export function advanceAlertState(
  state: AlertState,
  outcome: Outcome,
  thresholds: AlertThresholds,
): AdvancedAlertState {
  const sameSide = state.streakStatus !== null && failing(state.streakStatus) === failing(outcome);
  const streakCount = sameSide ? state.streakCount + 1 : 1;
  // Only a failing check recovers: a new check's first working outcome counts at once.
  const recoveries = state.alertStatus === null ? 1 : thresholds.recoveriesBeforeResolve;
  const needed = failing(outcome) ? thresholds.failuresBeforeAlert : recoveries;
  const alreadyOnSide =
    state.alertStatus !== null && failing(state.alertStatus) === failing(outcome);
  const reached = alreadyOnSide || streakCount >= needed;
  return {
    alertStatus: reached ? outcome : state.alertStatus,
    streakStatus: outcome,
    streakCount,
    pending: !reached,
  };
}
