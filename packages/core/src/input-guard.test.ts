import { describe, expect, it } from 'vitest';
import {
  assertSafeInput,
  inputIssues,
  isSafeInput,
  MAX_INPUT_DEPTH,
  MAX_INPUT_VALUES,
} from './input-guard.ts';

/** `levels` objects, one inside the other, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
}

describe('input guard: accepts', () => {
  it('ordinary JSON, astral characters in pairs, dates and exactly the deepest nesting', () => {
    expect(isSafeInput({ name: 'api 😀', tags: ['a', 'b'], n: -0, at: new Date(0) })).toBe(true);
    expect(isSafeInput(nested(MAX_INPUT_DEPTH))).toBe(true);
    expect(isSafeInput(undefined)).toBe(true);
    expect(isSafeInput(Object.create(null) as object)).toBe(true);
  });
});

describe('input guard: refuses, path by path', () => {
  it('a NUL in a value or in a key', () => {
    expect(isSafeInput({ owner: 'a\u0000' })).toBe(false);
    expect(inputIssues({ owner: 'a\u0000' })).toEqual([
      { path: 'owner', message: 'Must not contain a NUL character' },
    ]);
    expect(inputIssues({ meta: { 'k\u0000': 1 } })).toEqual([
      { path: 'meta.k\u0000', message: 'Key: Must not contain a NUL character' },
    ]);
  });

  it('unpaired surrogates, high or low, alone or at either end', () => {
    for (const bad of ['\ud800', '\udc00', 'x\ud83d', '\ude00x', '\ude00\ud83d']) {
      expect(isSafeInput({ list: ['ok', bad] }), JSON.stringify(bad)).toBe(false);
      expect(inputIssues({ list: ['ok', bad] })).toEqual([
        { path: 'list.1', message: 'Must not contain an unpaired UTF-16 surrogate' },
      ]);
    }
  });

  it('one level too deep, also when nested far deeper than the stack could follow', () => {
    expect(isSafeInput(nested(MAX_INPUT_DEPTH + 1))).toBe(false);
    const deep = nested(200_000);
    expect(isSafeInput(deep)).toBe(false);
    const [issue] = inputIssues(deep);
    expect(issue).toEqual({
      path: Array.from({ length: MAX_INPUT_DEPTH }, () => 'a').join('.'),
      message: `Nested deeper than ${MAX_INPUT_DEPTH} levels`,
    });
  });

  it('in sparse arrays too', () => {
    const sparse: unknown[] = [];
    sparse[3] = '\u0000';
    expect(inputIssues({ list: sparse })).toEqual([
      { path: 'list.3', message: 'Must not contain a NUL character' },
    ]);
  });

  it('more values than the bound', () => {
    const many = { list: Array.from({ length: MAX_INPUT_VALUES }, () => 0) };
    expect(isSafeInput(many)).toBe(false);
    expect(inputIssues(many)).toEqual([
      { path: 'list.99998', message: `The input holds more than ${MAX_INPUT_VALUES} values` },
    ]);
  });

  it('as BAD_REQUEST listing at most twenty issues', () => {
    const input = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, '\u0000']));
    let thrown: unknown;
    try {
      assertSafeInput(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect((thrown as { data: { issues: unknown[] } }).data.issues).toHaveLength(20);
  });
});
