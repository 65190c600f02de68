import { describe, expect, it } from 'vitest';
import { fitUtf8 } from './utf8-fit.ts';

const cut = (text: string) => (maxLength: number) => text.slice(0, maxLength);

describe('fitUtf8', () => {
  it('keeps ASCII up to the byte limit', () => {
    expect(fitUtf8(cut('a'.repeat(100)), 40)).toBe('a'.repeat(40));
  });

  it('cuts three-byte text below the byte limit, not far below it', () => {
    const output = fitUtf8(cut('€'.repeat(1_000)), 300);
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(300);
    expect(Buffer.byteLength(output)).toBeGreaterThan(240);
  });
});
