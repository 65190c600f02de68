import { testPrincipal } from '@checkline/core/testing';
import type { Principal } from '@checkline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlugins } from '../src/plugins.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

/**
 * Issue 24.1: the document states every answer. Every REST operation is called by each kind of
 * caller (anonymous, an application key, a signed-in user, a service; each holding no rule, and
 * each holding every rule) with an empty input and with an unknown field; every status answered
 * must be one the document declares for that operation.
 */
const plugins = createPlugins(testEnv);
const everyRule = plugins.flatMap((plugin) => plugin.accessRules.map((rule) => rule.id));
const kinds = ['user', 'application', 'service'] as const;
const callers: Record<string, Principal> = Object.fromEntries(
  kinds.flatMap((kind) => [
    [`${kind}-bare`, { ...testPrincipal([], { kind }), ...(kind === 'service' && { id: 'x' }) }],
    [
      `${kind}-all`,
      {
        ...testPrincipal(everyRule, { kind, isAdmin: true }),
        ...(kind === 'service' && { id: 'catalog' }),
      },
    ],
  ]),
);

interface Operation {
  method: string;
  path: string;
  declared: string[];
  /** The document's example input: valid, naming ids that exist nowhere. */
  example: Record<string, unknown>;
}

interface DocumentedOperation {
  responses: Record<string, unknown>;
  parameters?: { name: string; required?: boolean; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}

const exampleOf = (operation: DocumentedOperation): Record<string, unknown> => {
  const body = operation.requestBody?.content['application/json']?.example;
  if (body !== undefined) return body as Record<string, unknown>;
  return Object.fromEntries(
    (operation.parameters ?? [])
      .filter((parameter) => parameter.required && parameter.example !== undefined)
      .map((parameter) => [parameter.name, parameter.example]),
  );
};

let server: TestServer;
let operations: Operation[];
let rawOperations: Operation[];

beforeAll(async () => {
  server = await createTestServer({ plugins, principals: callers });
  const response = await server.request('/api/openapi.json', {
    headers: { authorization: 'Bearer application-all' },
  });
  const document = (await response.json()) as {
    paths: Record<string, Record<string, DocumentedOperation>>;
  };
  const operationsOf = (paths: [string, Record<string, DocumentedOperation>][]) =>
    paths.flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        declared: Object.keys(operation.responses),
        example: exampleOf(operation),
      })),
    );
  const paths = Object.entries(document.paths);
  operations = operationsOf(paths.filter(([path]) => path.startsWith('/rest/')));
  rawOperations = operationsOf(paths.filter(([path]) => !path.startsWith('/rest/')));
});
afterAll(() => server.close());

const inputs = [{}, { notInTheContract: 1 }];

describe('every answer of every operation is declared', () => {
  it('walks every REST operation', () => {
    expect(operations.length).toBeGreaterThan(80);
  });

  it('for each kind of caller, with and without rules, and invalid input', async () => {
    const undeclared: string[] = [];
    for (const { method, path, declared } of operations) {
      // Streams are read in their own test; here only their first answer matters.
      for (const token of [undefined, ...Object.keys(callers)]) {
        for (const input of inputs) {
          const query = method === 'GET' ? new URLSearchParams(input as never).toString() : '';
          const response = await server.rest(method, path.replace(/^\/rest\//, ''), {
            ...(token && { token }),
            ...(query && { query }),
            ...(method !== 'GET' && { body: input }),
          });
          await response.body?.cancel();
          if (!declared.includes(String(response.status))) {
            undeclared.push(`${method} ${path} as ${token ?? 'anonymous'}: ${response.status}`);
          }
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('for the example input of each operation (ids of nothing), by each kind of caller', async () => {
    const undeclared: string[] = [];
    for (const { method, path, declared, example } of operations) {
      for (const token of ['user-all', 'application-all', 'service-all', 'user-bare']) {
        const query =
          method === 'GET'
            ? new URLSearchParams(
                Object.entries(example).map(([key, value]) => [key, String(value)]),
              ).toString()
            : '';
        const response = await server.rest(method, path.replace(/^\/rest\//, ''), {
          token,
          ...(query && { query }),
          ...(method !== 'GET' && { body: example }),
        });
        await response.body?.cancel();
        if (!declared.includes(String(response.status))) {
          undeclared.push(`${method} ${path} as ${token}: ${response.status}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('for a wrong method and a body too large', async () => {
    const undeclared: string[] = [];
    for (const { method, path, declared } of operations) {
      const wrong = method === 'GET' ? 'PUT' : 'GET';
      const response = await server.rest(wrong, path.replace(/^\/rest\//, ''), {
        token: 'application-all',
      });
      if (!declared.includes(String(response.status))) {
        undeclared.push(`${wrong} ${path}: ${response.status}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('for the raw routes, the keyed surface and the probes, with every kind of body', async () => {
    expect(rawOperations.length).toBeGreaterThan(10);
    const bodies: (Record<string, string> | undefined)[] = [
      undefined,
      { 'content-type': 'application/json', body: '{}' },
      { 'content-type': 'application/json', body: '{"notInTheContract":1}' },
      { 'content-type': 'application/json', body: '{"broken":' },
      { 'content-type': 'application/x-www-form-urlencoded', body: 'List-Unsubscribe=One-Click' },
      { 'content-type': 'application/x-www-form-urlencoded', body: 'Not-A-Field=1' },
      { 'content-type': 'text/plain', body: 'not a form, not JSON' },
      { 'content-type': 'application/json', body: `"${'x'.repeat(1024 * 1024 + 1)}"` },
    ];
    const undeclared: string[] = [];
    for (const { method, path, declared } of rawOperations) {
      const url = path.replaceAll(/\{[^}]+\}/g, 'not-a-real-value');
      for (const token of [undefined, 'application-all', 'user-all', 'user-bare', 'not-a-key']) {
        for (const variant of method === 'GET' ? [undefined] : bodies) {
          const headers: Record<string, string> = {
            ...(token && { authorization: `Bearer ${token}` }),
            ...(variant && { 'content-type': variant['content-type']! }),
          };
          const response = await server.request(url, {
            method,
            headers,
            redirect: 'manual',
            ...(variant && { body: variant.body }),
          });
          await response.body?.cancel();
          if (!declared.includes(String(response.status))) {
            const body = variant
              ? `${variant['content-type']} ${(variant.body ?? '').slice(0, 40)}`
              : 'no body';
            undeclared.push(
              `${method} ${path} as ${token ?? 'anonymous'}, ${body}: ${response.status}`,
            );
          }
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('for the raw routes and the probes, on a host the server does not serve', async () => {
    const undeclared: string[] = [];
    const statuses = new Set<number>();
    for (const { method, path, declared } of rawOperations) {
      const url = path.replaceAll(/\{[^}]+\}/g, 'not-a-real-value');
      const response = await server.request(url, {
        method,
        headers: { host: 'elsewhere.example.net' },
        redirect: 'manual',
      });
      await response.body?.cancel();
      statuses.add(response.status);
      if (!declared.includes(String(response.status))) {
        undeclared.push(`${method} ${path}: ${response.status}`);
      }
    }
    expect(undeclared).toEqual([]);
    expect([...statuses]).toEqual([404]);
  });
});

describe('every answer of a raw route to a signed-in browser is declared', () => {
  let real: TestServer;
  let session: { cookie: string; origin: string };
  beforeAll(async () => {
    real = await createTestServer();
    session = await real.adminSession();
  });
  afterAll(() => real.close());

  it('with the session cookie, cross-site or not as JSON', async () => {
    const variants: Record<string, string>[] = [
      { cookie: session.cookie },
      { cookie: session.cookie, origin: 'https://elsewhere.example.net' },
      { cookie: session.cookie, origin: session.origin, 'content-type': 'text/plain' },
      { cookie: session.cookie, origin: session.origin, 'content-type': 'application/json' },
    ];
    const undeclared: string[] = [];
    const seen = new Set<number>();
    for (const { method, path, declared } of rawOperations) {
      if (method === 'GET') continue;
      const url = path.replaceAll(/\{[^}]+\}/g, 'not-a-real-value');
      for (const headers of variants) {
        const response = await real.request(url, {
          method,
          headers,
          redirect: 'manual',
          ...(headers['content-type'] && { body: '{}' }),
        });
        await response.body?.cancel();
        seen.add(response.status);
        if (!declared.includes(String(response.status))) {
          const how = Object.keys(headers).join('+');
          undeclared.push(`${method} ${path} with ${how}: ${response.status}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
    // The cross-site and non-JSON variants were refused somewhere: the walk reached the check.
    expect(seen).toContain(403);
  });
});
