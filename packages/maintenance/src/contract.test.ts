import { restMethodFor } from '@checkline/core/contract';
import { describe, expect, it } from 'vitest';
import { maintenanceContract } from './contract.ts';

/** The REST method (docs/api.md, derived from the procedure name) of every maintenance procedure. */
const expected = {
  getWindows: 'GET',
  getBulkActiveWindows: 'POST',
  scheduleWindow: 'POST',
  updateWindow: 'PATCH',
  deleteWindow: 'DELETE',
} as const;

describe('maintenance contract', () => {
  it('serves every procedure with the REST method its name gives it', () => {
    expect(Object.keys(maintenanceContract).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, procedure] of Object.entries(maintenanceContract)) {
      const { meta, route } = procedure['~orpc'];
      const method = expected[name as keyof typeof expected];
      expect(restMethodFor(name, meta), name).toBe(method);
      expect(route.method, name).toBe(method);
      expect(route.path, name).toBe(`/rest/maintenance/${name}`);
    }
  });

  it('requires the read rule for reads and the manage rule for changes', () => {
    const rules = Object.fromEntries(
      Object.entries(maintenanceContract).map(([name, procedure]) => [
        name,
        procedure['~orpc'].meta.access,
      ]),
    );
    expect(rules).toEqual({
      getWindows: ['maintenance.maintenance.read'],
      getBulkActiveWindows: ['maintenance.maintenance.read'],
      scheduleWindow: ['maintenance.maintenance.manage'],
      updateWindow: ['maintenance.maintenance.manage'],
      deleteWindow: ['maintenance.maintenance.manage'],
    });
  });
});
