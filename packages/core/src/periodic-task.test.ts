import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';
import type { PeriodicTaskOptions } from './periodic-task.ts';
import { createPeriodicTask } from './periodic-task.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A logger keeping `[level, message]` of every line. */
function recordingLogger() {
  const lines: [string, string][] = [];
  const at =
    (level: string) =>
    (_fields: unknown, message?: string): void =>
      void lines.push([level, message ?? '']);
  const logger: Logger = {
    ...silentLogger,
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
  return { logger, lines };
}

/** What postgres answers while it is away: a connection refused. */
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

/** A task named `demo`, every minute unless told, logging nothing. */
const demoTask = <T>(run: () => Promise<T>, options: Partial<PeriodicTaskOptions<T>> = {}) =>
  createPeriodicTask({ name: 'demo', intervalMs: 60_000, logger: silentLogger, run, ...options });

/** A round that, while `slow` holds, waits for `finish()`; it ends at once otherwise. */
function gatedRound(slow: boolean) {
  const gate = {
    slow,
    finish: () => {},
    run: vi.fn(async () => {
      if (gate.slow) await new Promise<void>((resolve) => (gate.finish = resolve));
    }),
  };
  return gate;
}

describe('createPeriodicTask', () => {
  it('runs once per interval from start until stop, and never after', async () => {
    const run = vi.fn(async () => {});
    const task = demoTask(run, { intervalMs: 1_000 });
    task.start();
    task.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_001);
    expect(run).toHaveBeenCalledTimes(3);
    await task.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    await task.runNow();
    task.start();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('runs at start when asked', async () => {
    const run = vi.fn(async () => {});
    const task = demoTask(run, { runAtStart: true });
    task.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await task.stop();
  });

  it('never overlaps a slow round: ticks and runNow join it, and stop waits for it', async () => {
    let finish = () => {};
    let finished = false;
    const run = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            finished = true;
            resolve();
          };
        }),
    );
    const task = demoTask(run, { intervalMs: 100 });
    task.start();
    await vi.advanceTimersByTimeAsync(350);
    const joined = task.runNow();
    expect(run).toHaveBeenCalledTimes(1);
    const stopped = task.stop();
    finish();
    await Promise.all([stopped, joined]);
    expect(finished).toBe(true);
  });

  it('logs a lost database once, keeps probing on schedule, and says when it resumes', async () => {
    const { logger, lines } = recordingLogger();
    let away = true;
    const run = vi.fn(async () => {
      if (away) throw refused();
    });
    const task = createPeriodicTask({ name: 'demo ticker', intervalMs: 100, logger, run });
    task.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(run).toHaveBeenCalledTimes(5);
    expect(lines).toEqual([['warn', 'database unavailable: demo ticker paused until it answers']]);
    away = false;
    await vi.advanceTimersByTimeAsync(200);
    expect(lines.slice(1)).toEqual([['info', 'database reachable again: demo ticker resumed']]);
    await task.stop();
  });

  it('logs any other failure of a round as an error and keeps going', async () => {
    const { logger, lines } = recordingLogger();
    let calls = 0;
    const run = async () => {
      calls += 1;
      if (calls === 1) throw new Error('bad row');
    };
    const task = demoTask(run, { intervalMs: 100, logger });
    task.start();
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toBe(3);
    expect(lines).toEqual([['error', 'demo failed; it runs again at the next interval']]);
    await task.stop();
  });
});

describe('createPeriodicTask timing', () => {
  it('times the next round from what the last one asked for, and from the interval after a failure', async () => {
    const delays = [250, 0, 0];
    let calls = 0;
    const run = vi.fn(async () => {
      calls += 1;
      if (calls === 4) throw new Error('bad row');
      return delays.shift() ?? 1_000;
    });
    const task = demoTask(run, {
      intervalMs: 1_000,
      runAtStart: true,
      nextDelayMs: (delay) => delay,
    });
    task.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(249);
    expect(run).toHaveBeenCalledTimes(1);
    // 0 ms twice: rounds 2, 3 and 4 back to back; round 4 fails, so round 5 waits the interval.
    await vi.advanceTimersByTimeAsync(10);
    expect(run).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(980);
    expect(run).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(20);
    expect(run).toHaveBeenCalledTimes(5);
    await task.stop();
  });

  it('wakes at once when idle, and once more right after a round in flight', async () => {
    const gate = gatedRound(false);
    const { run } = gate;
    const task = demoTask(run);
    task.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).not.toHaveBeenCalled();
    task.start();
    task.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);

    gate.slow = true;
    task.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    gate.slow = false;
    task.wake();
    task.wake();
    gate.finish();
    await vi.advanceTimersByTimeAsync(5);
    expect(run).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(59_990);
    expect(run).toHaveBeenCalledTimes(3);
    await task.stop();
  });

  it('a wake at any moment of a scheduled round ending is never lost to the next timer', async () => {
    // The round ends over several microtasks; a wake in any of them must still bring a round.
    for (let microtasks = 0; microtasks < 12; microtasks++) {
      let finish = () => {};
      // The first round waits for `finish`; later ones end at once.
      const run = vi.fn(() =>
        run.mock.calls.length === 1
          ? new Promise<void>((resolve) => (finish = resolve))
          : Promise.resolve(),
      );
      const task = demoTask(run, { runAtStart: true });
      task.start();
      await vi.advanceTimersByTimeAsync(0);
      expect(run).toHaveBeenCalledTimes(1);
      finish();
      for (let i = 0; i < microtasks; i++) await Promise.resolve();
      task.wake();
      await vi.advanceTimersByTimeAsync(5);
      expect({ microtasks, rounds: run.mock.calls.length }).toEqual({ microtasks, rounds: 2 });
      await task.stop();
    }
  });

  it('after a round started by runNow, a wake still runs once that round ends', async () => {
    const gate = gatedRound(true);
    const { run } = gate;
    const task = demoTask(run);
    task.start();
    const manual = task.runNow();
    gate.slow = false;
    task.wake();
    gate.finish();
    await manual;
    await vi.advanceTimersByTimeAsync(5);
    expect(run).toHaveBeenCalledTimes(2);
    await task.stop();
  });
});
