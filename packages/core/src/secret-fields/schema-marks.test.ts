import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { secretFieldPaths } from './field-paths.ts';
import { publishedJsonSchema } from './published-json-schema.ts';
import { color, destination, secret } from './schema-marks.ts';

const jsonSchemaOf = publishedJsonSchema;

const smtpConfig = z.object({
  host: z.string(),
  password: secret().optional(),
  token: secret(z.string().min(20)),
  primaryColor: color().default('#0a7'),
  accentColor: color().optional(),
});

describe('secret() and color() in JSON Schema', () => {
  it('carry x-secret and x-color into the JSON Schema the server publishes', () => {
    expect(jsonSchemaOf(smtpConfig)).toMatchObject({
      properties: {
        host: { type: 'string' },
        password: { type: 'string', 'x-secret': true },
        token: { type: 'string', minLength: 20, 'x-secret': true },
        primaryColor: { type: 'string', 'x-color': true, default: '#0a7' },
        accentColor: { type: 'string', 'x-color': true },
      },
    });
    const host = (jsonSchemaOf(smtpConfig) as { properties: Record<string, object> }).properties
      .host;
    expect(host).not.toHaveProperty('x-secret');
    expect(host).not.toHaveProperty('x-color');
  });

  it("carry them through zod's own z.toJSONSchema too", () => {
    expect(z.toJSONSchema(smtpConfig, { io: 'input' })).toMatchObject({
      properties: { password: { 'x-secret': true }, accentColor: { 'x-color': true } },
    });
  });
});

type Marker = (schema?: z.ZodString) => z.ZodType;
const markers: [string, Marker][] = [
  ['x-secret', (schema) => secret(schema)],
  ['x-color', () => color()],
  ['x-destination', (schema) => destination(schema ?? z.string())],
];
const modifiers: [string, (schema: z.ZodType) => z.ZodType][] = [
  ['.describe()', (schema) => schema.describe('D')],
  ['.meta({ description })', (schema) => schema.meta({ description: 'D' })],
  ['.optional().describe()', (schema) => schema.optional().describe('D')],
  ['.describe().optional()', (schema) => schema.describe('D').optional()],
  ['.nullable().describe()', (schema) => schema.nullable().describe('D')],
  ['.default().describe()', (schema) => schema.default('#abc').describe('D')],
  ['.describe().default()', (schema) => schema.describe('D').default('#abc')],
  ['.optional().nullable().describe()', (schema) => schema.optional().nullable().describe('D')],
  ['.describe().describe()', (schema) => schema.describe('first').describe('D')],
];

describe.each(markers)('%s', (keyword, marker) => {
  it.each(modifiers)('survives %s with its description', (_name, modify) => {
    const field = modify(marker());
    const published = jsonSchemaOf(z.object({ field })) as {
      properties: { field: Record<string, unknown> & { anyOf?: Record<string, unknown>[] } };
    };
    const property = published.properties.field;
    const marked = property[keyword] === true || property.anyOf?.some((o) => o[keyword] === true);
    expect(marked).toBe(true);
    expect(property.description).toBe('D');
  });
});

describe.each(markers.filter(([keyword]) => keyword !== 'x-color'))('%s', (keyword, marker) => {
  it('keeps the description of the schema it marks', () => {
    const field = marker(z.string().describe('D'));
    expect(jsonSchemaOf(z.object({ field }))).toMatchObject({
      properties: { field: { [keyword]: true, description: 'D' } },
    });
  });
});

describe('secret fields found by the server', () => {
  it.each(modifiers)('include a secret through %s', (_name, modify) => {
    expect(secretFieldPaths(z.object({ token: modify(secret()) }))).toEqual([['token']]);
  });
});

describe('color()', () => {
  it.each(['#abc', '#ABC', '#a1b2c3', '#A1B2C3'])('accepts %s', (value) => {
    expect(color().parse(value)).toBe(value);
  });

  it.each([
    'abc',
    '#ab',
    '#abcd',
    '#abcde',
    '#abcdefa',
    '#ggg',
    'red',
    'rgb(0,0,0)',
    ' #abc',
    '#abc\n',
  ])('refuses %j', (value) => {
    const result = color().safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Expected a colour as #rgb or #rrggbb');
  });
});

describe('secret()', () => {
  it('is a non-empty string by default and keeps the checks it was given', () => {
    expect(secret().parse('s3cret')).toBe('s3cret');
    expect(secret().safeParse('').success).toBe(false);
    expect(secret(z.string().min(20)).safeParse('short').success).toBe(false);
  });
});
