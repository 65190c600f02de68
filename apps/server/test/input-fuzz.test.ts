import { errorStatus } from '@checkline/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractInputs } from './support/contract-inputs.ts';
import { bracketQuery, inputArbitrary } from './support/input-arbitrary.ts';
import { adminServerPerFile } from './support/server-per-file.ts';

/**
 * Issue 8 item 4, as a property: whatever input any procedure of any plugin receives, on the keyed
 * and the REST surface, as an admin, the answer is never a 5xx, and every error keeps the error
 * object of every surface. Inputs follow each procedure's own schema with hostile leaves mixed in.
 */
const fixture = adminServerPerFile();
/** Existing resources the generated ids sometimes address, so calls reach past NOT_FOUND. */
const ids: string[] = [];
const procedures = contractInputs();

beforeAll(async () => {
  const response = await fixture.server.request('/api/catalog/', {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ createSystem: { name: 'fuzzed' }, createGroup: { name: 'fuzzed' } }),
  });
  const { createSystem, createGroup } = (await response.json()) as Record<string, { id: string }>;
  ids.push(createSystem!.id, createGroup!.id);
});

async function expectNoServerError(response: Response, sent: unknown) {
  const text = await response.text();
  const context = `${response.status} ${text.slice(0, 300)} for ${JSON.stringify(sent)?.slice(0, 300)}`;
  expect(response.status, context).toBeLessThan(500);
  if (response.status < 400) return;
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(errorStatus), context).toContain(body.code);
  expect(errorStatus[body.code as keyof typeof errorStatus], context).toBe(response.status);
  expect(typeof body.message, context).toBe('string');
  expect(typeof body.requestId, context).toBe('string');
}

const runs = { numRuns: 20, interruptAfterTimeLimit: 8_000, markInterruptAsFailure: false };

describe('no input makes any procedure answer 5xx', () => {
  it.each(procedures)('keyed $label', async ({ plugin, name, schema }) => {
    await fc.assert(
      fc.asyncProperty(inputArbitrary(schema, ids), async (input) => {
        const body = JSON.stringify({ [name]: input });
        const response = await fixture.server.request(`/api/${plugin}/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
          body,
        });
        await expectNoServerError(response, input);
      }),
      runs,
    );
  });

  it.each(procedures)('REST $label', async ({ method, path, schema }) => {
    await fc.assert(
      fc.asyncProperty(inputArbitrary(schema, ids), async (input) => {
        const headers: Record<string, string> = { authorization: `Bearer ${fixture.key}` };
        const response =
          method === 'GET'
            ? await fixture.server.request(`${path}?${bracketQuery(input)}`, { headers })
            : await fixture.server.request(path, {
                method,
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify(input) ?? 'null',
              });
        await expectNoServerError(response, input);
      }),
      runs,
    );
  });
});
