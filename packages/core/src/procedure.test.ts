import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAccessRules } from './access-rules.ts';
import { defineContract, mutation, query, restMethodFor } from './procedure.ts';
import { raises } from './raises.ts';

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

describe('errors a contract declares with raises()', () => {
  type Spec = (operation: object) => { responses: Record<string, unknown> };
  const responsesOf = (procedure: { '~orpc': { route: { spec?: unknown } } }) =>
    Object.keys((procedure['~orpc'].route.spec as Spec)({ responses: { '200': {} } }).responses);
  const contract = defineContract('demo', {
    getThings: query({ summary: 'Things.' }).output(z.object({})),
    getThing: query({ summary: 'One thing.' })
      .errors(raises('NOT_FOUND'))
      .input(z.object({ id: z.string() }))
      .output(z.object({})),
    renameThing: mutation({ summary: 'Renames a thing.' })
      .errors(raises('NOT_FOUND', 'CONFLICT'))
      .input(z.object({ id: z.string(), name: z.string() }))
      .output(z.object({})),
  });

  it('puts each declared code with its status in the error map, for @orpc/client', () => {
    expect(contract.renameThing['~orpc'].errorMap).toEqual({
      NOT_FOUND: { status: 404 },
      CONFLICT: { status: 409 },
    });
  });

  it.each([
    ['getThings', contract.getThings, [], ['404', '409', '413', '422']],
    ['getThing', contract.getThing, ['404'], ['409', '413', '422']],
    ['renameThing', contract.renameThing, ['404', '409', '413', '422'], []],
  ] as const)('%s answers exactly the derived and declared statuses', (_, procedure, has, not) => {
    const responses = responsesOf(procedure);
    expect(responses).toEqual(expect.arrayContaining(['200', '400', '401', '429', '500', '503']));
    expect(responses).toEqual(expect.arrayContaining([...has]));
    for (const status of not) expect(responses).not.toContain(status);
  });

  it('declares the Idempotent-Replayed header on the success of a change only', () => {
    const spec = (procedure: { '~orpc': { route: { spec?: unknown } } }) =>
      (procedure['~orpc'].route.spec as Spec)({ responses: { '200': { description: 'OK' } } })
        .responses['200'];
    expect(spec(contract.renameThing)).toMatchObject({
      headers: { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } },
    });
    expect(spec(contract.getThing)).not.toHaveProperty('headers');
  });

  it('refuses a code that is not an error of the wire contract', () => {
    expect(() =>
      defineContract('demo', {
        getThing: query({ summary: 'One thing.' })
          .errors({ TEAPOT: { status: 418 } })
          .output(z.object({})),
      }),
    ).toThrow('demo.getThing declares TEAPOT, which is not an error of the wire contract');
  });
});
