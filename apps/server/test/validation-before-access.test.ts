import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { mountedProcedures, type MountedProcedure } from './support/contract-inputs.ts';
import { seedTeamWorld, type CallerName, type TeamWorld } from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 9.6: input validation comes before the resource-access check, so a call whose input
 * lacks the id (or the system ids) the access check would read is BAD_REQUEST with issues, never
 * FORBIDDEN, on the keyed and REST surfaces, for every procedure that addresses a resource.
 */
let server: TestServer;
let world: TeamWorld;

beforeAll(async () => {
  server = await createTestServer();
  world = await seedTeamWorld(server);
});
afterAll(() => server.close());

interface Addressing {
  pluginId: string;
  name: string;
  method: string;
  path: string;
}

/**
 * Procedures whose input may leave every resource out and still mean something: without the
 * id they are a different, valid call (a subscription to everything the caller can read).
 */
const meaningfulWithoutIds = (definition: MountedProcedure['definition']) =>
  (definition.inputSchema as z.ZodType | undefined)?.safeParse({}).success === true;

function addressingProcedures(): Addressing[] {
  return mountedProcedures(server.checkline.plugins)
    .filter(({ meta }) => meta.resource || meta.attachedTo)
    .filter(({ definition }) => !meaningfulWithoutIds(definition))
    .map(({ pluginId, name, definition }) => ({
      pluginId,
      name,
      method: definition.route.method!,
      path: definition.route.path!,
    }));
}

/** Admins hold every rule; the outsider holds the monitoring rules but not auth's. */
const callersOf = (pluginId: string): CallerName[] =>
  pluginId === 'auth' ? ['admin'] : ['admin', 'outsider'];

const expectBadRequest = (answer: { status: number; body: any }, what: string) => {
  expect({ what, status: answer.status, code: answer.body.code }).toEqual({
    what,
    status: 400,
    code: 'BAD_REQUEST',
  });
  expect(answer.body.issues, what).toEqual(expect.arrayContaining([expect.anything()]));
};

describe('a call without the id its access check reads', () => {
  it('finds procedures addressing resources in several plugins', () => {
    const plugins = new Set(addressingProcedures().map((procedure) => procedure.pluginId));
    expect([...plugins].sort()).toEqual([
      'auth',
      'catalog',
      'healthcheck',
      'incident',
      'maintenance',
      'notification',
    ]);
  });

  it('leaves out only the procedures for which no id is a call of its own', () => {
    const optional = mountedProcedures(server.checkline.plugins)
      .filter(({ meta }) => meta.resource || meta.attachedTo)
      .filter(({ definition }) => meaningfulWithoutIds(definition))
      .map(({ pluginId, name }) => `${pluginId}.${name}`);
    expect(optional).toEqual(['notification.createSubscription']);
  });

  it('answers BAD_REQUEST with issues on the keyed surface', async () => {
    for (const { pluginId, name } of addressingProcedures()) {
      for (const caller of callersOf(pluginId)) {
        const answer = await world.call(caller, pluginId, { [name]: {} });
        expectBadRequest(answer, `${caller} ${pluginId}.${name}`);
        expect(answer.body.procedure).toBe(name);
      }
    }
  });

  it('answers BAD_REQUEST with issues on the REST surface', async () => {
    for (const { pluginId, name, method, path } of addressingProcedures()) {
      for (const caller of callersOf(pluginId)) {
        const response = await server.rest(method, path.replace(/^\/rest\//, ''), {
          ...world.credentials(caller, pluginId, name),
          ...(method !== 'GET' && { body: {} }),
        });
        const answer = { status: response.status, body: await response.json() };
        expectBadRequest(answer, `${caller} ${method} ${pluginId}.${name}`);
      }
    }
  });

  it('answers BAD_REQUEST inside a batch too, naming the key, before anything runs', async () => {
    const answer = await world.call('outsider', 'catalog', {
      createSystem: { name: 'never-created' },
      deleteSystem: {},
    });
    expectBadRequest(answer, 'batch');
    expect(answer.body.procedure).toBe('deleteSystem');
    const { getSystems } = await world.asAdmin('catalog', { getSystems: {} });
    expect(getSystems.systems.map((system: { name: string }) => system.name)).not.toContain(
      'never-created',
    );
  });

  it('still refuses a caller without the rule before looking at its input', async () => {
    const answer = await world.call('outsider', 'auth', { updateTeam: {} });
    expect(answer).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'Missing access: auth.teams.manage' },
    });
  });
});
