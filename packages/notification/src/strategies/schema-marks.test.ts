import { ZodToJsonSchemaConverter } from '@orpc/zod/zod4';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { color, secret } from './schema-marks.ts';

const converter = new ZodToJsonSchemaConverter();
const jsonSchemaOf = (schema: z.ZodType) => converter.convert(schema, { strategy: 'input' })[1];

const smtpConfig = z.object({
  host: z.string(),
  password: secret().optional(),
  token: secret(z.string().min(20)),
  primaryColor: color().default('#0a7'),
  accentColor: color().optional(),
});

describe('secret() and color() in JSON Schema', () => {
  it('carry x-secret and x-color through the converter the server uses', () => {
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
