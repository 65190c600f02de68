import { describe, expect, it } from 'vitest';
import { countByStatus, filterRows } from './filter-rows.ts';
import type { DashboardRow } from './load-dashboard.ts';

const row = (
  name: string,
  status: DashboardRow['status'],
  tags: string[] = [],
  groupIds: string[] = [],
): DashboardRow => ({ id: name, name, tags, groupIds, status, late: false });
const rows = [
  row('Checkout API', 'unhealthy', ['prod'], ['shop']),
  row('checkout-worker', 'healthy', ['prod'], ['shop', 'workers']),
  row('search', 'healthy', [], ['workers']),
  row('billing', 'maintenance', ['prod']),
];
const names = (kept: DashboardRow[]) => kept.map((kept) => kept.name);

describe('the dashboard filter', () => {
  it.each([
    [{ status: 'all', search: '', tag: null, group: null }, rows.map((kept) => kept.name)],
    [{ status: 'healthy', search: '', tag: null, group: null }, ['checkout-worker', 'search']],
    [
      { status: 'all', search: '  CHECKOUT ', tag: null, group: null },
      ['Checkout API', 'checkout-worker'],
    ],
    [
      { status: 'all', search: '', tag: 'prod', group: null },
      ['Checkout API', 'checkout-worker', 'billing'],
    ],
    [{ status: 'healthy', search: 'check', tag: 'prod', group: null }, ['checkout-worker']],
    [{ status: 'degraded', search: '', tag: null, group: null }, []],
    [{ status: 'all', search: '', tag: null, group: 'workers' }, ['checkout-worker', 'search']],
    [
      { status: 'all', search: '', tag: 'prod', group: 'shop' },
      ['Checkout API', 'checkout-worker'],
    ],
    [{ status: 'unhealthy', search: '', tag: null, group: 'workers' }, []],
  ] as const)('keeps the rows %o asks for', (filter, expected) => {
    expect(names(filterRows(rows, filter))).toEqual(expected);
  });

  it('counts every status, zero for those no system has', () => {
    expect(countByStatus(rows)).toEqual({
      healthy: 2,
      degraded: 0,
      unhealthy: 1,
      unknown: 0,
      maintenance: 1,
    });
  });
});
