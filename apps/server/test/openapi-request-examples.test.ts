import type { OpenAPI } from '@orpc/openapi';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../src/http/openapi.ts';
import { createPlugins } from '../src/plugins.ts';
import { testEnv } from './support/test-server.ts';

/**
 * Issue 24.6: every REST operation carries a request example built from its schema, valid
 * against that schema, so a reference's curl line never reads `"name": ""`.
 */
let document: OpenAPI.Document;
let validate: (schema: unknown, value: unknown) => string[];

beforeAll(async () => {
  document = await generateOpenApiDocument(createPlugins(testEnv), {
    version: 'test',
    baseUrl: 'http://127.0.0.1',
  });
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: document.components }, 'doc');
  validate = (schema, value) => {
    const check = ajv.compile(
      JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'),
      ) as object,
    );
    return check(value)
      ? []
      : (check.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
});

type Operations = Record<string, OpenAPI.OperationObject>;
const restOperations = () =>
  Object.entries(document.paths ?? {})
    .filter(([path]) => path.startsWith('/rest/'))
    .flatMap(([path, item]) =>
      Object.entries(item as Operations).map(([method, operation]) => ({
        where: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );

/** Every string inside a value, with where it is. */
const stringsIn = (value: unknown, where = ''): [string, string][] =>
  typeof value === 'string'
    ? [[where, value]]
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, item]) => stringsIn(item, `${where}.${key}`))
      : [];

describe('request examples', () => {
  it('every JSON request body has an example that its schema accepts', () => {
    const problems: string[] = [];
    let bodies = 0;
    for (const { where, operation } of restOperations()) {
      const body = operation.requestBody as OpenAPI.RequestBodyObject | undefined;
      const media = body?.content['application/json'];
      if (!media) continue;
      bodies += 1;
      if (media.example === undefined) problems.push(`${where}: no example`);
      else problems.push(...validate(media.schema, media.example).map((p) => `${where}: ${p}`));
    }
    expect(bodies).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('every required query parameter has an example that its schema accepts', () => {
    const problems: string[] = [];
    for (const { where, operation } of restOperations()) {
      for (const parameter of (operation.parameters ?? []) as OpenAPI.ParameterObject[]) {
        if (!parameter.required) continue;
        if (parameter.example === undefined) problems.push(`${where} ${parameter.name}: none`);
        else {
          problems.push(
            ...validate(parameter.schema, parameter.example).map(
              (problem) => `${where} ${parameter.name}: ${problem}`,
            ),
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('no example holds an empty string', () => {
    const empty = restOperations().flatMap(({ where, operation }) => {
      const body = operation.requestBody as OpenAPI.RequestBodyObject | undefined;
      return stringsIn(body?.content['application/json']?.example)
        .filter(([, text]) => text === '')
        .map(([path]) => `${where}${path}`);
    });
    expect(empty).toEqual([]);
  });
});
