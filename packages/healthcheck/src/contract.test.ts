import { restMethodFor } from '@checkline/core/contract';
import { describe, expect, it } from 'vitest';
import { healthcheckContract } from './contract.ts';

const expected = {
  getHealthCheckTypes: ['GET', 'healthcheck.healthcheck.read'],
  getHealthChecks: ['GET', 'healthcheck.healthcheck.read'],
  createHealthCheck: ['POST', 'healthcheck.healthcheck.manage'],
  updateHealthCheck: ['PATCH', 'healthcheck.healthcheck.manage'],
  deleteHealthCheck: ['DELETE', 'healthcheck.healthcheck.manage'],
  runHealthCheck: ['POST', 'healthcheck.healthcheck.manage'],
  getHistory: ['GET', 'healthcheck.healthcheck.read'],
  getSystemHealthStatus: ['GET', 'healthcheck.healthcheck.read'],
  getBulkSystemHealthStatus: ['POST', 'healthcheck.healthcheck.read'],
  rotateHeartbeatToken: ['POST', 'healthcheck.healthcheck.manage'],
  setSystemDependencies: ['POST', 'healthcheck.healthcheck.manage'],
  getSystemDependencies: ['GET', 'healthcheck.healthcheck.read'],
  getUptime: ['POST', 'healthcheck.healthcheck.read'],
  getRollups: ['GET', 'healthcheck.healthcheck.read'],
  getDailyUptime: ['POST', 'healthcheck.healthcheck.read'],
  getSchedulerStatus: ['GET', 'healthcheck.healthcheck.manage'],
} as const;

describe('healthcheck contract', () => {
  it('has exactly the documented procedures', () => {
    expect(Object.keys(healthcheckContract).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(healthcheckContract))(
    '%s has the REST method, path and rule its name implies',
    (name, procedure) => {
      const { route, meta } = procedure['~orpc'];
      const [method, rule] = expected[name as keyof typeof expected];
      expect(route.method).toBe(restMethodFor(name, meta));
      expect(route.method).toBe(method);
      expect(route.path).toBe(`/rest/healthcheck/${name}`);
      expect(route.operationId).toBe(`healthcheck.${name}`);
      expect(meta.access).toEqual([rule]);
    },
  );

  it('names catalog systems as attached resources, never as its own', () => {
    const metaOf = (name: keyof typeof expected) => healthcheckContract[name]['~orpc'].meta;
    const system = { type: 'catalog.system', label: 'System' };
    expect(metaOf('getSystemHealthStatus').attachedTo).toEqual({
      ...system,
      fields: ['systemId'],
      level: 'read',
    });
    expect(metaOf('createHealthCheck').attachedTo).toEqual({
      ...system,
      fields: ['systemId'],
      level: 'manage',
    });
    expect(metaOf('setSystemDependencies').attachedTo).toEqual({
      ...system,
      fields: ['systemId', 'dependsOn'],
      level: 'manage',
    });
    expect(metaOf('getSystemDependencies').attachedTo).toEqual({
      ...system,
      fields: ['systemId'],
      level: 'read',
    });
    expect(metaOf('getUptime').attachedTo).toEqual({
      ...system,
      fields: ['systemIds'],
      level: 'read',
    });
    expect(metaOf('getBulkSystemHealthStatus').attachedList).toEqual({
      ...system,
      field: 'statuses',
      via: 'systemId',
    });
    for (const procedure of Object.values(healthcheckContract)) {
      expect(procedure['~orpc'].meta.resource).toBeUndefined();
    }
  });
});
