import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { color, secret } from './schema-marks.ts';
import { secretFieldPaths } from './field-paths.ts';

describe('secretFieldPaths', () => {
  it('lists every secret, nested and wrapped, in declaration order', () => {
    const schema = z.object({
      host: z.string(),
      password: secret().optional(),
      auth: z
        .object({ user: z.string(), token: secret().nullable(), color: color() })
        .default({ user: 'x', token: null, color: '#000' }),
      headers: z.array(z.object({ name: z.string(), value: secret() })),
      keys: z.record(z.string(), secret()),
      mode: z.union([z.object({ apiKey: secret() }), z.object({ oauth: z.string() })]),
      both: z.intersection(z.object({ a: secret() }), z.object({ b: z.string() })),
      piped: z.object({ c: secret() }).transform((value) => value),
    });
    expect(secretFieldPaths(schema)).toEqual([
      ['password'],
      ['auth', 'token'],
      ['headers', '*', 'value'],
      ['keys', '*'],
      ['mode', 'apiKey'],
      ['both', 'a'],
      ['piped', 'c'],
    ]);
  });

  it('answers the root for a secret itself and nothing for a schema without secrets', () => {
    expect(secretFieldPaths(secret())).toEqual([[]]);
    expect(secretFieldPaths(z.object({ host: z.string(), color: color() }))).toEqual([]);
  });

  it('lists a path once when union options repeat it', () => {
    const schema = z.union([
      z.object({ key: secret() }),
      z.object({ key: secret(), extra: z.string() }),
    ]);
    expect(secretFieldPaths(schema)).toEqual([['key']]);
  });
});
