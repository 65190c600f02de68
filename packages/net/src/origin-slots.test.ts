import { describe, expect, it } from 'vitest';
import { createOriginSlots } from './origin-slots.ts';

const never = new AbortController().signal;

describe('origin slots', () => {
  it('let as many hold an origin at once as it has slots, the rest in arrival order', async () => {
    const slots = createOriginSlots(2);
    const order: string[] = [];
    const first = await slots.acquire('http://a', never);
    const second = await slots.acquire('http://a', never);
    const third = slots
      .acquire('http://a', never)
      .then((release) => (order.push('third'), release));
    const fourth = slots
      .acquire('http://a', never)
      .then((release) => (order.push('fourth'), release));
    // Another origin has slots of its own.
    (await slots.acquire('http://b', never))();
    expect(slots.load('http://a')).toEqual({ held: 2, waiting: 2 });

    first();
    first(); // a second release of the same slot frees nothing more
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
    expect(slots.load('http://a')).toEqual({ held: 0, waiting: 0 });
  });

  it('forget a waiter whose signal aborts, with its reason', async () => {
    const slots = createOriginSlots(1);
    const held = await slots.acquire('http://a', never);
    const controller = new AbortController();
    const waiting = slots.acquire('http://a', controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(slots.load('http://a')).toEqual({ held: 1, waiting: 0 });
    held();
    expect(slots.load('http://a')).toEqual({ held: 0, waiting: 0 });
  });
});
