import fc from 'fast-check';

/** JSON Schema as zod writes it for an input (the parts the generator reads). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
}

/**
 * `levels` objects one inside the other, built without recursion; it names itself in
 * counterexamples, which fast-check would otherwise print recursively.
 */
function nestedValue(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = { d: value };
  Object.defineProperty(value, fc.toStringMethod, { value: () => `nestedValue(${levels})` });
  return value;
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Strings no database stores or that stretch every bound. */
const hostileString = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', 'ok\u0000', '\udc00ok'),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\ude00\ud83d',
    '😀',
    '',
    ' ',
    "'; drop table catalog.systems; --",
    '%00',
    'x'.repeat(5_001),
    'y'.repeat(300_000),
  ),
  fc.string({ unit: anyCodeUnit, maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/** Numbers at and past every edge JSON can carry. */
const oddNumber = fc.oneof(
  fc.constantFrom(-0, 0.5, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -1e308, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** ISO timestamps inside, at and outside the years 1000..9999, and some that are not dates. */
const oddTimestamp = fc.oneof(
  fc.constantFrom(
    '0050-06-15T00:00:00Z',
    '0999-12-31T23:59:59.999Z',
    '1000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T23:00:00-05:00',
    '0000-01-01T00:00:00+14:00',
    '2024-02-30T00:00:00Z',
    '2024-06-15',
    '+275760-09-13T00:00:00.000Z',
  ),
  fc
    .date({ noInvalidDate: true, min: new Date(-62e12), max: new Date(253e12) })
    .map((date) => date.toISOString()),
);

/** Anything hostile: strings, numbers, timestamps, nesting around the limit and far past it. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  oddNumber,
  oddTimestamp,
  fc.constantFrom(30, 31, 32, 33, 100, 4_100).map(nestedValue),
  fc.dictionary(hostileString, fc.oneof(hostileString, oddNumber), { maxKeys: 3 }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.constantFrom(null, true, [], {}),
);

/**
 * Inputs shaped like `schema` whose leaves are now well-formed, now hostile, so that calls reach
 * past validation into handlers and the database. `ids` are existing resources to address.
 */
export function inputArbitrary(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<unknown> {
  const shaped = (node: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    const alternatives = node.anyOf ?? node.oneOf;
    if (alternatives) return fc.oneof(...alternatives.map((item) => leaf(item, depth)));
    if (node.const !== undefined) return fc.constant(node.const);
    if (node.enum) return fc.constantFrom(...node.enum);
    const type = Array.isArray(node.type) ? node.type[0] : node.type;
    switch (type) {
      case 'object': {
        const properties = Object.entries(node.properties ?? {});
        if (properties.length === 0 && node.additionalProperties !== false) {
          return fc.dictionary(
            hostileString,
            fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostileValue),
            { maxKeys: 4 },
          );
        }
        const record = Object.fromEntries(
          properties.map(([key, value]) => [key, leaf(value, depth + 1)]),
        );
        return fc.record(record, { requiredKeys: node.required ?? [] });
      }
      case 'array':
        return fc.array(leaf(node.items ?? {}, depth + 1), {
          maxLength: Math.min(node.maxItems ?? 3, 3),
        });
      case 'string':
        if (node.format === 'uuid') return fc.oneof(fc.constantFrom(...ids), fc.uuid());
        if (node.format === 'date-time') return oddTimestamp;
        if (node.format === 'email') return fc.emailAddress();
        return fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.constantFrom('a', 'prod', 'http'),
          hostileString,
        );
      case 'integer':
      case 'number':
        return fc.oneof(
          fc.integer({ min: node.minimum ?? -10, max: Math.min(node.maximum ?? 1_000, 1_000) }),
          oddNumber,
        );
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        return fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostileValue);
    }
  };
  // One leaf in three is hostile whatever the schema says; past three levels, shape only.
  const leaf = (node: JsonSchema, depth: number): fc.Arbitrary<unknown> =>
    depth > 3
      ? shaped(node, depth)
      : fc.oneof(
          { weight: 2, arbitrary: shaped(node, depth) },
          { weight: 1, arbitrary: hostileValue },
        );
  return fc.oneof(
    { weight: 4, arbitrary: shaped(schema, 0) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** `a[b][0]=x` bracket notation of a value, as REST reads a GET query. */
export function bracketQuery(input: unknown): string {
  const params = new URLSearchParams();
  // A stack, not recursion: inputs nest thousands of levels.
  const pending: [unknown, string][] = [[input, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, name] = next;
    if (value === null || value === undefined) continue;
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        pending.push([item, name ? `${name}[${key}]` : key]);
      }
    } else params.append(name || 'value', String(value));
  }
  return params.toString();
}
