import { randomUUID } from 'node:crypto';
import type { AnyPlugin } from '@checkline/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaConverters } from '../src/http/openapi.ts';
import { createPlugins } from '../src/plugins.ts';
import { mountedProcedures } from './support/contract-inputs.ts';
import { probePlugin } from './support/probe-plugin.ts';
import { createTestServer, testEnv, type TestServer } from './support/test-server.ts';

type JsonSchema = {
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
};

let server: TestServer;
let session: { cookie: string };

beforeAll(async () => {
  const plugins = createPlugins(testEnv);
  server = await createTestServer({ plugins: [...plugins, probePlugin] });
  session = await server.adminSession();
});
afterAll(() => server.close());

/** A valid query-string value for a scalar schema. */
function sampleValue(schema: JsonSchema): string {
  if (schema.enum?.length) return String(schema.enum[0]);
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date-time') return new Date().toISOString();
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  if (schema.anyOf) return sampleValue(schema.anyOf.find((option) => option.type !== 'null')!);
  return 'sample';
}

interface ArrayParameter {
  pluginId: string;
  procedure: string;
  name: string;
  items: JsonSchema;
  /** The other required parameters, filled with valid values. */
  required: string;
}

/** Every top-level array in the input of every GET procedure of every mounted plugin. */
function arrayParametersOfGetProcedures(plugins: readonly AnyPlugin[]) {
  const [converter] = schemaConverters;
  const found: ArrayParameter[] = [];
  for (const { pluginId, name: procedure, definition: def } of mountedProcedures(plugins)) {
    if (def.route.method !== 'GET' || !def.inputSchema) continue;
    const [, input] = converter!.convert(def.inputSchema, { strategy: 'input' }) as [
      boolean,
      JsonSchema,
    ];
    const properties = Object.entries(input.properties ?? {});
    for (const [name, schema] of properties) {
      if (schema.type !== 'array' || !schema.items) continue;
      const required = properties
        .filter(([other]) => other !== name && input.required?.includes(other))
        .map(([other, otherSchema]) =>
          otherSchema.type === 'array'
            ? `${other}=${encodeURIComponent(sampleValue(otherSchema.items!))}`
            : otherSchema.type === 'object'
              ? ''
              : `${other}=${encodeURIComponent(sampleValue(otherSchema))}`,
        )
        .filter(Boolean)
        .join('&');
      found.push({ pluginId, procedure, name, items: schema.items, required });
    }
  }
  return found;
}

const isProbe = (parameter: ArrayParameter) => parameter.pluginId === 'probe';

describe('REST: an array in a GET query', () => {
  it('is accepted once, repeated and in bracket notation, for every GET procedure of every plugin', async () => {
    const parameters = arrayParametersOfGetProcedures(server.checkline.plugins);
    expect(parameters.filter((parameter) => !isProbe(parameter)).length).toBeGreaterThanOrEqual(2);
    for (const parameter of parameters) {
      if (isProbe(parameter)) continue; // its required object needs bracket notation; tested below
      const name = parameter.name;
      const [first, second] = [sampleValue(parameter.items), sampleValue(parameter.items)];
      const forms = {
        once: `${name}=${encodeURIComponent(first)}`,
        repeated: `${name}=${encodeURIComponent(first)}&${name}=${encodeURIComponent(second)}`,
        brackets: `${name}[0]=${encodeURIComponent(first)}&${name}[1]=${encodeURIComponent(second)}`,
      };
      for (const [form, query] of Object.entries(forms)) {
        const response = await server.request(
          `/rest/${parameter.pluginId}/${parameter.procedure}?${[query, parameter.required].filter(Boolean).join('&')}`,
          { headers: { cookie: session.cookie } },
        );
        const body = await response.text();
        expect({
          procedure: parameter.procedure,
          name,
          form,
          status: response.status,
          body,
        }).toEqual({ procedure: parameter.procedure, name, form, status: 200, body });
      }
    }
  });

  it('decodes one value as a one-element array, and repeated values in order', async () => {
    const filter = 'filter[active]=true&filter[minScore]=1&filter[owner][name]=x';
    for (const [query, ids] of [
      ['ids=a', ['a']],
      ['ids=a&ids=b', ['a', 'b']],
      ['ids[0]=a&ids[1]=b', ['a', 'b']],
    ] as const) {
      const response = await server.request(`/rest/probe/echo?${filter}&${query}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ids });
    }
  });

  it('filters systems by one tag given once', async () => {
    const made = await server.request('/api/catalog/', {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: 'http://localhost:3000',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ createSystem: { name: 'one-tag', tags: ['prod'] } }),
    });
    expect(made.status).toBe(200);
    const response = await server.request('/rest/catalog/getSystems?tags=prod', {
      headers: { cookie: session.cookie },
    });
    expect(response.status).toBe(200);
    const { systems } = (await response.json()) as { systems: { name: string }[] };
    expect(systems.map((system) => system.name)).toEqual(['one-tag']);
  });
});

describe('OpenAPI: array query parameters', () => {
  it('are described with style form and explode, never deepObject', async () => {
    const parameters = Object.values(server.checkline.openapi.paths ?? {})
      .flatMap((path) => Object.values(path ?? {}))
      .flatMap((operation) => (operation as { parameters?: unknown[] }).parameters ?? [])
      .map(
        (parameter) =>
          parameter as { name: string; schema?: JsonSchema; style?: string; explode?: boolean },
      )
      // Shared parameters (the Idempotency-Key header) are references without a schema here.
      .filter((parameter) => parameter.schema?.type === 'array');
    expect(parameters.length).toBeGreaterThanOrEqual(2);
    for (const parameter of parameters) {
      expect({ name: parameter.name, style: parameter.style, explode: parameter.explode }).toEqual({
        name: parameter.name,
        style: 'form',
        explode: true,
      });
    }
  });
});
