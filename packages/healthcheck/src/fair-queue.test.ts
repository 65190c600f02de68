import { describe, expect, it } from 'vitest';
import type { FairKey } from './fair-queue.ts';
import { createFairQueue } from './fair-queue.ts';

/** Items that finish when the test says so; what started, in order. */
function harness(concurrency: number) {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const queue = createFairQueue<string>({
    concurrency,
    run: (item) =>
      new Promise<void>((resolve) => {
        started.push(item);
        finishers.set(item, resolve);
      }),
  });
  const finish = async (item: string) => {
    finishers.get(item)!();
    finishers.delete(item);
    // Let the queue's finally and its next start run.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, finish };
}

const keys = (owner: string, host: string, ownerCap = 64, hostCap = 8): FairKey[] => [
  { key: `owner:${owner}`, cap: ownerCap },
  { key: `host:${host}`, cap: hostCap },
];

describe('fair queue', () => {
  it('takes lanes in turn: one item of another lane waits one turn, not the backlog', async () => {
    const { queue, started, finish } = harness(1);
    for (let index = 0; index < 5; index++) queue.offer(`a${index}`, keys('a', `h${index}`));
    queue.offer('b0', keys('b', 'hb'));
    expect(started).toEqual(['a0']);
    await finish('a0');
    expect(started).toEqual(['a0', 'b0']);
    await finish('b0');
    expect(started).toEqual(['a0', 'b0', 'a1']);
  });

  it('never runs more of a key than its cap, nor more in all than the concurrency', () => {
    const { queue, started } = harness(10);
    for (let index = 0; index < 6; index++) queue.offer(`a${index}`, keys('a', 'slow', 64, 3));
    expect(started).toEqual(['a0', 'a1', 'a2']);
    for (let index = 0; index < 20; index++) queue.offer(`b${index}`, keys('b', `h${index}`, 5));
    expect(started.filter((item) => item.startsWith('b'))).toHaveLength(5);
    expect(queue.running).toBe(8);
  });

  it('lets the rest of a lane pass an item whose host is at its cap', () => {
    const { queue, started } = harness(10);
    queue.offer('a0', keys('a', 'slow', 64, 1));
    queue.offer('a1', keys('a', 'slow', 64, 1));
    queue.offer('a2', keys('a', 'fast', 64, 1));
    expect(started).toEqual(['a0', 'a2']);
    expect(queue.waiting).toBe(1);
  });

  it('refuses an item when its key already has cap items waiting, and takes it again later', async () => {
    const { queue, finish } = harness(10);
    const slow = () => keys('a', 'slow', 64, 2);
    expect([0, 1, 2, 3].map((index) => queue.offer(`a${index}`, slow()))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(queue.offer('a4', slow())).toBe(false);
    expect(queue.waiting).toBe(2);
    await finish('a0');
    expect(queue.offer('a4', slow())).toBe(true);
  });

  it('starts the next item when a run fails', async () => {
    const started: string[] = [];
    const queue = createFairQueue<string>({
      concurrency: 1,
      run: (item) => {
        started.push(item);
        return Promise.reject(new Error('down'));
      },
    });
    queue.offer('a', keys('a', 'h'));
    queue.offer('b', keys('b', 'h'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
  });
});
