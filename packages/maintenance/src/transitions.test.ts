import { describe, expect, it } from 'vitest';
import { settleAnnouncements } from './transitions.ts';

const now = new Date('2030-01-01T12:00:00.000Z');
const hours = (n: number) => new Date(now.getTime() + n * 3_600_000);
const unannounced = { startedNotifiedAt: null, endedNotifiedAt: null };

describe('settleAnnouncements', () => {
  it('leaves a window that has not ended to the ticker', () => {
    expect(settleAnnouncements({ startAt: hours(1), endAt: hours(2) }, unannounced, now)).toEqual(
      unannounced,
    );
    expect(settleAnnouncements({ startAt: hours(-1), endAt: hours(1) }, unannounced, now)).toEqual(
      unannounced,
    );
  });

  it('marks a window written wholly in the past as announced, so it is never announced', () => {
    expect(settleAnnouncements({ startAt: hours(-2), endAt: hours(-1) }, unannounced, now)).toEqual(
      { startedNotifiedAt: now, endedNotifiedAt: now },
    );
  });

  it('starts a fresh cycle when an ended window is moved back into the future', () => {
    const ended = { startedNotifiedAt: hours(-3), endedNotifiedAt: hours(-1) };
    expect(settleAnnouncements({ startAt: hours(-3), endAt: hours(1) }, ended, now)).toEqual(
      unannounced,
    );
  });

  it('keeps the announced start of an active window that is shortened into the past', () => {
    const active = { startedNotifiedAt: hours(-1), endedNotifiedAt: null };
    const storedRow = { ...active, startAt: hours(-1), endAt: hours(1), title: 'stored' };
    expect(settleAnnouncements({ startAt: hours(-2), endAt: hours(-1) }, storedRow, now)).toEqual(
      active,
    );
  });
});
