import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isTimeout, withDeadline } from './deadline.ts';

describe('withDeadline', () => {
  it('aborts with the parent, keeping its reason', () => {
    const parent = new AbortController();
    const deadline = withDeadline(parent.signal, 10_000);
    parent.abort(new Error('shutting down'));
    expect(deadline.signal.reason).toEqual(new Error('shutting down'));
    expect(isTimeout(deadline.signal.reason)).toBe(false);
    deadline.release();
  });

  it('aborts with a TimeoutError once the time is up', async () => {
    const deadline = withDeadline(new AbortController().signal, 20);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
    expect(isTimeout(deadline.signal.reason)).toBe(true);
    deadline.release();
  });

  it('leaves nothing attached to a long-lived parent once released', () => {
    const parent = new AbortController();
    for (let i = 0; i < 100; i += 1) withDeadline(parent.signal, 10_000).release();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });
});
