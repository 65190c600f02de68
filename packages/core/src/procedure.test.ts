import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAccessRules } from './access-rules.ts';
import { defineContract, mutation, query, restMethodFor } from './procedure.ts';

describe('restMethodFor', () => {
  it.each([
    ['getThings', 'query', 'GET'],
    ['listThings', 'query', 'GET'],
    ['getBulkThingStatus', 'query', 'POST'],
    ['createThing', 'mutation', 'POST'],
    ['addThingToGroup', 'mutation', 'POST'],
    ['updateThing', 'mutation', 'PATCH'],
    ['deleteThing', 'mutation', 'DELETE'],
    ['removeThingFromGroup', 'mutation', 'DELETE'],
    ['runThing', 'mutation', 'POST'],
    ['scheduleWindow', 'mutation', 'POST'],
    ['updater', 'mutation', 'POST'],
  ] as const)('%s (%s) is served with %s', (name, kind, method) => {
    expect(restMethodFor(name, { kind })).toBe(method);
  });

  it('serves a query marked bulk as POST', () => {
    expect(restMethodFor('getThings', { kind: 'query', bulk: true })).toBe('POST');
  });
});

describe('defineContract', () => {
  const rules = defineAccessRules('demo', { read: ['things.read', 'Read things'] });
  const contract = defineContract('demo', {
    getThing: query({
      access: [rules.read],
      resource: { type: 'demo.thing', idField: 'id' },
      summary: 'One thing.',
    })
      .input(z.object({ id: z.string() }))
      .output(z.object({ id: z.string() })),
    deleteThing: mutation({ summary: 'Deletes a thing.', description: 'For **good**.' })
      .input(z.object({ id: z.string() }))
      .output(z.object({})),
  });

  it('derives method, path, operationId and tag from the plugin id and the name', () => {
    expect(contract.getThing['~orpc'].route).toMatchObject({
      method: 'GET',
      path: '/rest/demo/getThing',
      operationId: 'demo.getThing',
      tags: ['demo'],
    });
    expect(contract.deleteThing['~orpc'].route.method).toBe('DELETE');
  });

  it('keeps the access metadata, with full rule ids and the default resource level', () => {
    expect(contract.getThing['~orpc'].meta).toMatchObject({
      kind: 'query',
      access: ['demo.things.read'],
      resource: { type: 'demo.thing', idField: 'id', level: 'read' },
    });
  });

  it('adds security, error responses and x-access-rules to the OpenAPI operation', () => {
    const spec = contract.getThing['~orpc'].route.spec as (op: object) => Record<string, unknown>;
    const operation = spec({ responses: { '200': { description: 'OK' } } });
    expect(operation.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(operation['x-access-rules']).toEqual(['demo.things.read']);
    expect(Object.keys(operation.responses as object)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '405', '429', '500', '503']),
    );
    expect(operation.responses).not.toHaveProperty('413'); // a GET has no body
  });

  it('carries the summary and description given to query() and mutation() to the route', () => {
    expect(contract.getThing['~orpc'].route).toMatchObject({ summary: 'One thing.' });
    expect(contract.getThing['~orpc'].route.description).toBeUndefined();
    expect(contract.deleteThing['~orpc'].route).toMatchObject({
      summary: 'Deletes a thing.',
      description: 'For **good**.',
    });
  });
});

describe('team access in contract metadata', () => {
  const thing = { type: 'other.thing', label: 'Thing' };

  it('refuses a resource of another plugin: its grants stand in only for their own plugin', () => {
    expect(() =>
      defineContract('demo', {
        getThing: query({ resource: { ...thing, idField: 'id' }, summary: 'One thing.' }).input(
          z.object({ id: z.string() }),
        ),
      }),
    ).toThrow('demo.getThing: other.thing belongs to another plugin');
    expect(() =>
      defineContract('demo', {
        getThings: query({
          resourceList: { type: 'other.thing', field: 'things' },
          summary: 'Things.',
        }),
      }),
    ).toThrow('belongs to another plugin');
  });

  it('takes resources of another plugin as attached, at the level the procedure kind implies', () => {
    const contract = defineContract('demo', {
      getNote: query({ attachedTo: { ...thing, fields: ['thingId'] }, summary: 'A note.' }),
      createNote: mutation({
        attachedTo: { ...thing, fields: ['thingIds'] },
        summary: 'Creates a note.',
      }),
    });
    expect(contract.getNote['~orpc'].meta.attachedTo).toMatchObject({ level: 'read' });
    expect(contract.createNote['~orpc'].meta.attachedTo).toMatchObject({ level: 'manage' });
  });
});
