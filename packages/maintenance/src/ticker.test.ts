import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTicker } from './ticker.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createTicker', () => {
  describe('works', () => {
    it('runs the task once per interval from start until stop', async () => {
      const task = vi.fn(async () => {});
      const ticker = createTicker(task, { intervalMs: 1_000, onError: () => {} });
      ticker.start();
      ticker.start();
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(task).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(2_001);
      expect(task).toHaveBeenCalledTimes(3);
      await ticker.stop();
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(task).toHaveBeenCalledTimes(3);
    });

    it('skips a beat instead of overlapping a slow run, and stop waits for it', async () => {
      let finish = () => {};
      let finished = false;
      const task = vi.fn(
        () =>
          new Promise<void>((resolve) => {
            finish = () => {
              finished = true;
              resolve();
            };
          }),
      );
      const ticker = createTicker(task, { intervalMs: 100, onError: () => {} });
      ticker.start();
      await vi.advanceTimersByTimeAsync(350);
      expect(task).toHaveBeenCalledTimes(1);
      const stopped = ticker.stop();
      finish();
      await stopped;
      expect(finished).toBe(true);
    });
  });

  describe('rejects bad input', () => {
    it('reports a failing run and keeps ticking', async () => {
      const errors: unknown[] = [];
      let calls = 0;
      const ticker = createTicker(
        async () => {
          calls += 1;
          if (calls === 1) throw new Error('database away');
        },
        { intervalMs: 100, onError: (error) => errors.push(error) },
      );
      ticker.start();
      await vi.advanceTimersByTimeAsync(200);
      await ticker.stop();
      expect(calls).toBe(2);
      expect(errors).toEqual([new Error('database away')]);
    });
  });
});
