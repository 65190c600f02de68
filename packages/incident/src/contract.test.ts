import { restMethodFor } from '@checkline/core/contract';
import { describe, expect, it } from 'vitest';
import { incidentContract } from './contract.ts';

/** The REST method (docs/api.md, derived from the procedure name) of every incident procedure. */
const expected = {
  getIncidents: 'GET',
  listIncidents: 'GET',
  getIncident: 'GET',
  createIncident: 'POST',
  updateIncident: 'PATCH',
  deleteIncident: 'DELETE',
} as const;

describe('incident contract', () => {
  it('serves every procedure with the REST method its name gives it', () => {
    expect(Object.keys(incidentContract).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, procedure] of Object.entries(incidentContract)) {
      const { meta, route } = procedure['~orpc'];
      const method = expected[name as keyof typeof expected];
      expect(restMethodFor(name, meta), name).toBe(method);
      expect(route.method, name).toBe(method);
      expect(route.path, name).toBe(`/rest/incident/${name}`);
    }
  });

  it('requires the read rule for reads and the manage rule for changes', () => {
    const rules = Object.fromEntries(
      Object.entries(incidentContract).map(([name, procedure]) => [
        name,
        procedure['~orpc'].meta.access,
      ]),
    );
    expect(rules).toEqual({
      getIncidents: ['incident.incident.read'],
      listIncidents: ['incident.incident.read'],
      getIncident: ['incident.incident.read'],
      createIncident: ['incident.incident.manage'],
      updateIncident: ['incident.incident.manage'],
      deleteIncident: ['incident.incident.manage'],
    });
  });
});
