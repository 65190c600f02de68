import { describe, expect, it } from 'vitest';
import type { AlertState, AlertThresholds } from './alert-state.ts';
import { advanceAlertState } from './alert-state.ts';

const fresh: AlertState = { alertStatus: null, streakStatus: null, streakCount: 0 };

/** The alert status after each outcome in turn, with `?` marking a pending one. */
function walk(outcomes: string, thresholds: AlertThresholds, start: AlertState = fresh) {
  let state = start;
  return [...outcomes]
    .map((letter) => {
      const outcome = ({ p: 'pass', w: 'warn', f: 'fail' } as const)[letter as 'p' | 'w' | 'f'];
      const next = advanceAlertState(state, outcome, thresholds);
      state = next;
      return `${next.alertStatus ?? '-'}${next.pending ? '?' : ''}`;
    })
    .join(' ');
}

describe('advanceAlertState', () => {
  it('follows every outcome at once with both thresholds at 1', () => {
    expect(walk('pfwfp', { failuresBeforeAlert: 1, recoveriesBeforeResolve: 1 })).toBe(
      'pass fail warn fail pass',
    );
  });

  it('keeps a working check working through fewer failures in a row than the threshold', () => {
    expect(walk('pffpffp', { failuresBeforeAlert: 3, recoveriesBeforeResolve: 1 })).toBe(
      'pass pass? pass? pass pass? pass? pass',
    );
  });

  it('turns failing on the failure that reaches the threshold, and stays failing', () => {
    expect(walk('pffff', { failuresBeforeAlert: 3, recoveriesBeforeResolve: 1 })).toBe(
      'pass pass? pass? fail fail',
    );
  });

  it('recovers only after the recoveries in a row, a failure in between starting again', () => {
    expect(walk('ffpfppp', { failuresBeforeAlert: 1, recoveriesBeforeResolve: 3 })).toBe(
      'fail fail fail? fail fail? fail? pass',
    );
  });

  it('counts warnings as working and moves between pass and warn at once', () => {
    expect(walk('fwpw', { failuresBeforeAlert: 1, recoveriesBeforeResolve: 2 })).toBe(
      'fail fail? pass warn',
    );
  });

  it('leaves a new check without an alert status until an outcome reaches its threshold', () => {
    expect(walk('ffp', { failuresBeforeAlert: 3, recoveriesBeforeResolve: 2 })).toBe('-? -? pass');
  });
});
