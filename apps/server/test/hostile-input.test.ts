import { describe, expect, it } from 'vitest';
import { adminServerPerFile } from './support/server-per-file.ts';

/**
 * The input rules (docs/api.md): strings without NUL or lone surrogates (values and keys), JSON nested at
 * most 32 levels, timestamps between the years 1000 and 9999; a violation is BAD_REQUEST with
 * `issues` on every surface, never a 500 from the database.
 */
const fixture = adminServerPerFile();

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** One input, sent raw (a JSON text) through each surface that takes a JSON body or query. */
const surfaces = {
  keyed: (plugin: string, procedure: string, inputJson: string) =>
    fixture.server.request(`/api/${plugin}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
      body: `{"${procedure}":${inputJson}}`,
    }),
  rpc: (plugin: string, procedure: string, inputJson: string) =>
    fixture.server.request(`/api/${plugin}/${procedure}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
      body: `{"json":${inputJson}}`,
    }),
  rest: (plugin: string, procedure: string, inputJson: string, method = 'POST') =>
    fixture.server.request(`/rest/${plugin}/${procedure}`, {
      method,
      headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
      body: inputJson,
    }),
};

/** The error object; oRPC's own protocol wraps it as `{ json: { code, message, data } }`. */
async function errorOf(response: Response): Promise<Record<string, any>> {
  const body = (await response.json()) as Record<string, any>;
  return body.json ? { ...body.json, ...body.json.data } : body;
}

async function expectBadRequest(response: Response, path: string) {
  const body = await errorOf(response);
  expect({ status: response.status, code: body.code }).toEqual({
    status: 400,
    code: 'BAD_REQUEST',
  });
  expect(body.issues).toEqual(expect.arrayContaining([{ path, message: expect.any(String) }]));
  expect(body.requestId).toEqual(expect.any(String));
}

const systemId = async () => {
  const response = await surfaces.keyed('catalog', 'createSystem', `{"name":"s-${Date.now()}"}`);
  return ((await response.json()) as { createSystem: { id: string } }).createSystem.id;
};

describe('hostile strings are BAD_REQUEST on every surface', () => {
  const cases = [
    ['a NUL in a filter', 'getSystems', '{"owner":"a\\u0000b"}', 'owner'],
    [
      'a lone surrogate in metadata',
      'createSystem',
      '{"name":"s1","metadata":{"k":"\\ud800"}}',
      'metadata.k',
    ],
    [
      'a NUL in a metadata key',
      'createSystem',
      '{"name":"s2","metadata":{"k\\u0000":1}}',
      'metadata.k\u0000',
    ],
    ['a trailing high surrogate in a name', 'createSystem', '{"name":"x\\udbff"}', 'name'],
    [
      'a lone low surrogate deep in an array',
      'createSystem',
      '{"name":"s3","metadata":{"l":[1,["\\udc00"]]}}',
      'metadata.l.1.0',
    ],
    [
      'metadata nested 4 100 levels',
      'createSystem',
      `{"name":"s4","metadata":${nested(4100)}}`,
      'metadata.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a',
    ],
  ] as const;

  for (const surface of ['keyed', 'rpc', 'rest'] as const) {
    for (const [what, procedure, input, path] of cases) {
      it(`${surface}: ${what}`, async () => {
        if (surface === 'rest' && procedure === 'getSystems') {
          const response = await fixture.server.request('/rest/catalog/getSystems?owner=a%00b', {
            headers: { authorization: `Bearer ${fixture.key}` },
          });
          await expectBadRequest(response, path);
          return;
        }
        const unique = input.replace(/"name":"([^"]*)"/, `"name":"$1 ${surface}"`);
        await expectBadRequest(await surfaces[surface]('catalog', procedure, unique), path);
      });
    }
  }

  it('keyed: names the failing key of a batch and writes nothing', async () => {
    const response = await surfaces.keyed(
      'catalog',
      'createSystem',
      '{"name":"kept?"},"updateSystem":{"id":"00000000-0000-4000-8000-000000000000","owner":"\\u0000"}',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ procedure: 'updateSystem' });
    const list = await surfaces.keyed('catalog', 'getSystems', '{}');
    const { getSystems } = (await list.json()) as { getSystems: { systems: { name: string }[] } };
    expect(getSystems.systems.map((system) => system.name)).not.toContain('kept?');
  });

  it('accepts 32 levels of nesting and well-formed astral characters', async () => {
    const response = await surfaces.keyed(
      'catalog',
      'createSystem',
      `{"name":"deep-ok \\ud83d\\ude00","metadata":${nested(31)}}`,
    );
    expect(response.status).toBe(200);
  });
});

describe('timestamps lie between the years 1000 and 9999', () => {
  it('refuses a window starting in the year 50 instead of answering 1950', async () => {
    const id = await systemId();
    await expectBadRequest(
      await surfaces.keyed(
        'maintenance',
        'scheduleWindow',
        JSON.stringify({
          title: 'old',
          systemIds: [id],
          startAt: '0050-06-15T00:00:00Z',
          endAt: '2050-06-15T00:00:00Z',
        }),
      ),
      'startAt',
    );
  });

  it('refuses an instant past 9999 once its offset is applied', async () => {
    const id = await systemId();
    await expectBadRequest(
      await surfaces.rest(
        'maintenance',
        'scheduleWindow',
        JSON.stringify({
          title: 'late',
          systemIds: [id],
          startAt: '2050-06-15T00:00:00Z',
          endAt: '9999-12-31T23:00:00-05:00',
        }),
      ),
      'endAt',
    );
  });

  it('refuses a history cursor before the year 1000 on the REST query string', async () => {
    const response = await fixture.server.request(
      '/rest/healthcheck/getHistory?healthCheckId=00000000-0000-4000-8000-000000000000&before=0999-12-31T23:59:59Z',
      { headers: { authorization: `Bearer ${fixture.key}` } },
    );
    await expectBadRequest(response, 'before');
  });

  it('keeps the bounds themselves', async () => {
    const id = await systemId();
    const response = await surfaces.keyed(
      'maintenance',
      'scheduleWindow',
      JSON.stringify({
        title: 'edges',
        systemIds: [id],
        startAt: '1000-01-01T00:00:00Z',
        endAt: '9999-12-31T23:59:59.999Z',
      }),
    );
    expect(response.status).toBe(200);
    const { scheduleWindow } = (await response.json()) as Record<string, any>;
    expect(scheduleWindow).toMatchObject({
      startAt: '1000-01-01T00:00:00.000Z',
      endAt: '9999-12-31T23:59:59.999Z',
    });
  });
});
