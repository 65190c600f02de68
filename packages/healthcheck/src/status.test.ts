import { describe, expect, it } from 'vitest';
import { deriveHealthStatus } from './status.ts';

describe('deriveHealthStatus', () => {
  it.each([
    [[], false, 'unknown'],
    [['pass'], false, 'healthy'],
    [['pass', 'pass', 'pass'], false, 'healthy'],
    [['pass', 'fail'], false, 'degraded'],
    [['fail', 'pass', 'pass'], false, 'degraded'],
    [['fail'], false, 'unhealthy'],
    [['fail', 'fail'], false, 'unhealthy'],
    [['warn'], false, 'degraded'],
    [['pass', 'warn'], false, 'degraded'],
    [['warn', 'fail'], false, 'degraded'],
    [['fail', 'fail'], true, 'maintenance'],
    [[], true, 'maintenance'],
  ] as const)('%j with maintenance %s is %s', (outcomes, inMaintenance, expected) => {
    expect(deriveHealthStatus(outcomes, inMaintenance)).toBe(expected);
  });
});
