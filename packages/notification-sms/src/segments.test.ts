import { describe, expect, it } from 'vitest';
import { fitSegments, smsSize } from './segments.ts';

describe('smsSize', () => {
  it('counts GSM-7 septets: 160 in one segment, then 153 per segment', () => {
    expect(smsSize('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSize('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsSize('a'.repeat(306)).segments).toBe(2);
    expect(smsSize('a'.repeat(307)).segments).toBe(3);
  });

  it('counts extension characters as two septets', () => {
    expect(smsSize('€[]{}')).toEqual({ encoding: 'GSM-7', units: 10, segments: 1 });
  });

  it('switches to UCS-2 for a character outside the GSM alphabet: 70, then 67 per segment', () => {
    expect(smsSize(`${'a'.repeat(69)}✓`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsSize(`${'a'.repeat(70)}✓`).segments).toBe(2);
    // An emoji is two UTF-16 code units.
    expect(smsSize('🔥')).toEqual({ encoding: 'UCS-2', units: 2, segments: 1 });
  });
});

describe('fitSegments', () => {
  it('leaves a message that fits as it is', () => {
    expect(fitSegments('Checkout is down', '\nOpen: https://x.example', 1)).toBe(
      'Checkout is down\nOpen: https://x.example',
    );
  });

  it('cuts the head, marked, keeping the whole tail within the segments', () => {
    const tail = '\nOpen: https://status.example/checks/1';
    const text = fitSegments('word '.repeat(200), tail, 2);
    expect(text.endsWith(`...${tail}`)).toBe(true);
    expect(smsSize(text).segments).toBe(2);
    expect(smsSize(text).units).toBeGreaterThan(290);
  });

  it('never splits an emoji when cutting a UCS-2 text', () => {
    const text = fitSegments('🔥'.repeat(100), '', 1);
    expect(smsSize(text)).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(text).toBe(`${'🔥'.repeat(33)}...`);
  });
});
