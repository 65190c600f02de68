import { describe, expect, it } from 'vitest';
import { defineEvent, EventBus } from './events.ts';
import type { Logger } from './logger.ts';
import { silentLogger } from './logger.ts';

const thingChanged = defineEvent<{ id: string }>('demo.thing_changed');

describe('EventBus', () => {
  it('delivers a payload to every subscriber of its type, and only of its type', async () => {
    const bus = new EventBus(silentLogger);
    const seen: string[] = [];
    bus.subscribe(thingChanged, ({ id }) => void seen.push(`a:${id}`));
    bus.subscribe(thingChanged, async ({ id }) => void seen.push(`b:${id}`));
    bus.subscribe(defineEvent<{ id: string }>('demo.other_thing'), () => void seen.push('wrong'));
    bus.publish(thingChanged, { id: '1' });
    await bus.settled();
    expect(seen.sort()).toEqual(['a:1', 'b:1']);
  });

  it('logs a failing subscriber without affecting the others', async () => {
    const errors: unknown[] = [];
    const logger: Logger = { ...silentLogger, error: (entry) => void errors.push(entry) };
    const bus = new EventBus(logger);
    let delivered = false;
    bus.subscribe(thingChanged, () => {
      throw new Error('boom');
    });
    bus.subscribe(thingChanged, () => void (delivered = true));
    bus.publish(thingChanged, { id: '1' });
    await bus.settled();
    expect(delivered).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('stops delivering after unsubscribe', async () => {
    const bus = new EventBus(silentLogger);
    let count = 0;
    const unsubscribe = bus.subscribe(thingChanged, () => void (count += 1));
    bus.publish(thingChanged, { id: '1' });
    unsubscribe();
    bus.publish(thingChanged, { id: '2' });
    await bus.settled();
    expect(count).toBe(1);
  });

  it('refuses event names outside {pluginId}.{event_name}', () => {
    expect(() => defineEvent('changed')).toThrow();
    expect(() => defineEvent('Demo.Changed')).toThrow();
  });
});
