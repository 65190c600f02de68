import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight.ts';

describe('singleFlight', () => {
  it('shares one run between overlapping calls and starts a new one afterwards', async () => {
    let runs = 0;
    let release = () => {};
    const flight = singleFlight(async () => {
      runs += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return runs;
    });
    const first = flight.run();
    const second = flight.run();
    expect(flight.running).toBe(true);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(flight.running).toBe(false);
    const third = flight.run();
    release();
    expect(await third).toBe(2);
  });

  it('settles after a failed run without throwing, and runs again afterwards', async () => {
    let fail = true;
    const flight = singleFlight(async () => {
      if (fail) throw new Error('down');
      return 'up';
    });
    const failing = flight.run();
    await flight.settled();
    await expect(failing).rejects.toThrow('down');
    fail = false;
    await expect(flight.run()).resolves.toBe('up');
  });
});
