import { describe, expect, it } from 'vitest';
import { findDependencyCycle } from './cycle.ts';

const edges = (...pairs: [string, string][]) =>
  pairs.map(([systemId, dependsOnSystemId]) => ({ systemId, dependsOnSystemId }));

describe('findDependencyCycle', () => {
  it('finds none in a chain or a diamond', () => {
    expect(findDependencyCycle('a', ['b'], edges(['b', 'c'], ['c', 'd']))).toBeUndefined();
    expect(
      findDependencyCycle('a', ['b', 'c'], edges(['b', 'd'], ['c', 'd'], ['d', 'e'])),
    ).toBeUndefined();
    expect(findDependencyCycle('a', [], edges(['b', 'a']))).toBeUndefined();
  });

  it('names the cycle from the system back to itself, a shortest one', () => {
    expect(findDependencyCycle('a', ['a'], [])).toEqual(['a', 'a']);
    expect(findDependencyCycle('a', ['b'], edges(['b', 'a']))).toEqual(['a', 'b', 'a']);
    expect(
      findDependencyCycle('a', ['b', 'x'], edges(['b', 'c'], ['c', 'd'], ['d', 'a'], ['x', 'a'])),
    ).toEqual(['a', 'x', 'a']);
    expect(findDependencyCycle('a', ['b'], edges(['b', 'c'], ['c', 'd'], ['d', 'a']))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'a',
    ]);
  });

  it("replaces the system's own current edges rather than adding to them", () => {
    expect(findDependencyCycle('a', ['c'], edges(['a', 'b'], ['b', 'a']))).toBeUndefined();
  });
});
