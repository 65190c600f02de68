import { describe, expect, it } from 'vitest';
import { membershipChanges } from './membership.ts';

describe('group membership changes', () => {
  it.each([
    [[], ['a', 'b'], { add: ['a', 'b'], remove: [] }],
    [['a', 'b'], [], { add: [], remove: ['a', 'b'] }],
    [['a', 'b'], ['b', 'c'], { add: ['c'], remove: ['a'] }],
    [['a'], ['a', 'a'], { add: [], remove: [] }],
  ])('from %o to %o adds and removes %o', (current, picked, expected) => {
    expect(membershipChanges(current, picked)).toEqual(expected);
  });
});
