import { describe, expect, it } from 'vitest';
import { decodeOutput, encodeOutput, inputHash } from './stored-output.ts';

describe('a stored output', () => {
  it('comes back as it was, dates as dates, at any depth and at the root', () => {
    const output = {
      id: 'a',
      createdAt: new Date('2026-01-02T03:04:05.006Z'),
      nested: [{ at: new Date(0), n: 1, none: null }],
      gone: undefined,
    };
    const stored = JSON.parse(JSON.stringify(encodeOutput(output))) as ReturnType<
      typeof encodeOutput
    >;
    const { gone: _gone, ...kept } = output;
    expect(decodeOutput(stored)).toEqual(kept);
    const root = decodeOutput(JSON.parse(JSON.stringify(encodeOutput(new Date(5)))));
    expect(root).toEqual(new Date(5));
  });
});

describe('an input hash', () => {
  it('ignores key order and tells different inputs apart', () => {
    expect(inputHash({ a: 1, b: [1, 2] })).toBe(inputHash({ b: [1, 2], a: 1 }));
    expect(inputHash({ a: 1, b: [1, 2] })).not.toBe(inputHash({ a: 1, b: [2, 1] }));
    expect(inputHash({ at: new Date(0) })).toBe(inputHash({ at: new Date(0) }));
    expect(inputHash({ at: new Date(0) })).not.toBe(inputHash({ at: new Date(1) }));
  });
});
