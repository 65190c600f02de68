import { HealthFactsSchema } from '@checkline/notification-node';
import { describe, expect, it } from 'vitest';
import {
  statusChangeFacts,
  suppressedByDependency,
  suppressedByMaintenance,
} from './status-change-source.ts';

const system = { id: '00000000-0000-4000-8000-0000000000a1', name: 'Checkout API' };
const failing = {
  healthCheckId: '00000000-0000-4000-8000-0000000000c1',
  name: 'Checkout ping',
  type: 'healthcheck.http',
  status: 'fail' as const,
  message: 'Expected status 2xx, got 500',
  latencyMs: 12,
  checkedAt: '2030-01-01T10:07:30.000Z',
};

describe('the status change source works', () => {
  it('turns a change into facts: the failing checks, the time, and how long the status before lasted', () => {
    const facts = statusChangeFacts(
      {
        systemId: system.id,
        previous: 'healthy',
        current: 'unhealthy',
        at: '2030-01-01T10:07:30.000Z',
        previousSince: '2030-01-01T10:00:00.000Z',
        failingChecks: [failing, { ...failing, status: 'warn', message: '' }],
      },
      system,
    );
    expect(HealthFactsSchema.parse(facts)).toEqual(facts);
    expect(facts).toEqual({
      kind: 'healthcheck.status_changed',
      system,
      previous: 'healthy',
      current: 'unhealthy',
      changedAt: '2030-01-01T10:07:30.000Z',
      previousSince: '2030-01-01T10:00:00.000Z',
      previousDurationMs: 450_000,
      failingChecks: [
        {
          id: failing.healthCheckId,
          name: 'Checkout ping',
          type: 'healthcheck.http',
          status: 'fail',
          message: 'Expected status 2xx, got 500',
          latencyMs: 12,
          checkedAt: failing.checkedAt,
        },
        // A result without words says so as null rather than an empty quote.
        expect.objectContaining({ status: 'warn', message: null }),
      ],
    });
  });

  it('leaves the duration unknown for a change published without its start', () => {
    const facts = statusChangeFacts(
      { systemId: system.id, previous: 'unknown', current: 'healthy', at: failing.checkedAt },
      system,
    );
    expect(facts).toMatchObject({
      previousSince: null,
      previousDurationMs: null,
      failingChecks: [],
    });
  });

  it('says which dependency or maintenance window held an alert back', () => {
    expect(suppressedByDependency('s1')).toBe('Suppressed: caused by the outage of dependency s1');
    expect(suppressedByMaintenance({ id: 'w1', title: 'DB upgrade' })).toBe(
      'Suppressed: maintenance window "DB upgrade" (w1) covers the system',
    );
  });
});
