import { testPrincipal } from '@checkline/core/testing';
import type { Principal } from '@checkline/core';
import { getEventIteratorSchemaDetails } from '@orpc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { mountedProcedures, type MountedProcedure } from './support/contract-inputs.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 24.5: an input field the contract does not know is refused with 400 naming it, on every
 * surface, for every procedure (zod would otherwise drop it and the call would answer 200 having
 * ignored it). Each procedure is called by a caller of a kind it admits, holding every rule.
 */
const plugins = createPlugins(testEnv);
const everyRule = plugins.flatMap((plugin) => plugin.accessRules.map((rule) => rule.id));
const callers: Record<string, Principal> = {
  user: testPrincipal(everyRule, { kind: 'user', isAdmin: true }),
  application: testPrincipal(everyRule, { kind: 'application', isAdmin: true }),
  service: { ...testPrincipal(everyRule, { kind: 'service', isAdmin: true }), id: 'catalog' },
  anonymous: testPrincipal(everyRule, { kind: 'anonymous' }),
};
const UNKNOWN = 'notInTheContract';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ plugins, principals: callers });
});
afterAll(() => server.close());

const procedures = mountedProcedures(plugins);

/** A caller of a kind the procedure admits (a signed-in one when it admits several). */
const callerOf = ({ meta }: MountedProcedure) =>
  (['user', 'application', 'service', 'anonymous'] as const).find((kind) =>
    meta.principals.includes(kind),
  )!;

interface Answer {
  status: number;
  body: { code?: string; issues?: { path: string; message: string }[] };
}

const expectUnknownNamed = (answer: Answer, what: string, path = UNKNOWN) => {
  expect({ what, status: answer.status, code: answer.body.code }).toEqual({
    what,
    status: 400,
    code: 'BAD_REQUEST',
  });
  expect(answer.body.issues ?? answer.body, what).toContainEqual({
    path,
    message: `Unknown field ${path.split('.').at(-1)}: not part of this procedure's input`,
  });
};

const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  body: (await response.json()) as Answer['body'],
});

describe('an input field the contract does not know', () => {
  it('walks procedures of every plugin with a contract', () => {
    const walked = new Set(procedures.map(({ pluginId }) => pluginId));
    expect([...walked]).toEqual(
      expect.arrayContaining(['auth', 'catalog', 'healthcheck', 'incident', 'notification']),
    );
    expect(procedures.length).toBeGreaterThan(80);
  });

  it('is 400 naming it on the keyed surface', async () => {
    // A stream cannot be a keyed answer: that surface refuses it whatever the input.
    const keyed = procedures.filter(
      ({ definition }) => !getEventIteratorSchemaDetails(definition.outputSchema),
    );
    expect(procedures.length - keyed.length).toBe(1);
    for (const procedure of keyed) {
      const response = await server.keyed(
        procedure.pluginId,
        { [procedure.name]: { [UNKNOWN]: 1 } },
        callerOf(procedure),
      );
      expectUnknownNamed(await answerOf(response), `${procedure.pluginId}.${procedure.name}`);
    }
  });

  it('is 400 naming it on the REST surface', async () => {
    for (const procedure of procedures) {
      const { method, path } = procedure.definition.route;
      const response = await server.rest(method!, path!.replace(/^\/rest\//, ''), {
        token: callerOf(procedure),
        ...(method === 'GET' ? { query: `${UNKNOWN}=1` } : { body: { [UNKNOWN]: 1 } }),
      });
      expectUnknownNamed(await answerOf(response), `${method} ${path}`);
    }
  });

  it('is 400 naming it on the oRPC surface', async () => {
    for (const procedure of procedures) {
      const response = await server.request(`/api/${procedure.pluginId}/${procedure.name}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${callerOf(procedure)}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ json: { [UNKNOWN]: 1 } }),
      });
      const { json } = (await response.json()) as {
        json: { code?: string; status?: number; data?: { issues?: Answer['body']['issues'] } };
      };
      expectUnknownNamed(
        { status: response.status, body: { code: json.code, issues: json.data?.issues } },
        `oRPC ${procedure.pluginId}.${procedure.name}`,
      );
    }
  });

  it('is named by its path when it is nested', async () => {
    const answer = await server.keyed(
      'notification',
      { previewNotification: { notification: { title: 'Hello', [UNKNOWN]: true } } },
      'user',
    );
    expectUnknownNamed(await answerOf(answer), 'nested', `notification.${UNKNOWN}`);
  });
});

describe('the document', () => {
  it('declares every input object closed (additionalProperties: false)', async () => {
    const response = await server.request('/api/openapi.json', {
      headers: { authorization: 'Bearer application' },
    });
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; operationId?: string }>>;
    };
    const open: string[] = [];
    const visit = (schema: unknown, where: string) => {
      if (typeof schema !== 'object' || schema === null) return;
      const node = schema as Record<string, unknown>;
      if (node.type === 'object' && node.properties && node.additionalProperties !== false) {
        open.push(where);
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`);
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith('/rest/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        visit(operation.requestBody, `${method} ${path}`);
      }
    }
    expect(open).toEqual([]);
  });
});
