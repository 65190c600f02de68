import { describe, expect, it } from 'vitest';
import { repeatedTopLevelKey } from './repeated-key.ts';

describe('repeatedTopLevelKey', () => {
  it('finds a key given twice, whatever lies between', () => {
    expect(repeatedTopLevelKey('{"createSystem":{"name":"a1"},"createSystem":{"name":"a2"}}')).toBe(
      'createSystem',
    );
    expect(
      repeatedTopLevelKey(
        ' {\n "a" : [1, {"b": "}\\"]"}, [[]]] , "c": -1.5e3, "d":null,"e":true, "c" :{} }',
      ),
    ).toBe('c');
  });

  it('compares keys as JSON reads them, escapes included', () => {
    expect(repeatedTopLevelKey('{"getSystems":{},"get\\u0053ystems":{}}')).toBe('getSystems');
    expect(repeatedTopLevelKey('{"a\\\\":1,"a\\\\":2}')).toBe('a\\');
  });

  it('answers undefined when every key is distinct, nested repeats aside', () => {
    expect(repeatedTopLevelKey('{}')).toBeUndefined();
    expect(repeatedTopLevelKey('{"a":{"x":1,"x":2},"b":"\\"a\\":","c":["a","a"]}')).toBeUndefined();
    expect(repeatedTopLevelKey('{"a":1,"A":2,"a ":3}')).toBeUndefined();
  });
});
