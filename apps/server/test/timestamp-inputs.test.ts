import { describe, expect, it } from 'vitest';
import { contractInputs } from './support/contract-inputs.ts';
import type { JsonSchema } from './support/input-arbitrary.ts';

/** Paths (as arrays of keys, '[]' for an array item) of every date-time field of a schema. */
function timestampPaths(schema: JsonSchema, path: string[] = []): string[][] {
  if (schema.format === 'date-time') return [path];
  const nested = [
    ...Object.entries(schema.properties ?? {}).flatMap(([key, value]) =>
      timestampPaths(value, [...path, key]),
    ),
    ...(schema.items ? timestampPaths(schema.items, [...path, '[]']) : []),
    ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((item) =>
      timestampPaths(item, path),
    ),
  ];
  return nested;
}

/** An input holding `value` at `path` and nothing else. */
function inputWith(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>(
    (inner, key) => (key === '[]' ? [inner] : { [key]: inner }),
    value,
  );
}

const fields = contractInputs().flatMap(({ plugin, name, input, schema }) =>
  input
    ? timestampPaths(schema).map((path) => ({
        label: `${plugin}.${name} ${path.join('.')}`,
        input: input,
        path,
      }))
    : [],
);

describe('every timestamp input of every plugin lies between the years 1000 and 9999', () => {
  it('finds the timestamp inputs it walks', () => {
    const labels = fields.map((field) => field.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'maintenance.scheduleWindow startAt',
        'maintenance.updateWindow endAt',
        'healthcheck.getHistory before',
        'auth.createApplication expiresAt',
      ]),
    );
  });

  it.each(fields)('$label', ({ input, path }) => {
    const message = 'A timestamp lies between the years 1000 and 9999';
    const at = path.map((key) => (key === '[]' ? 0 : key));
    for (const outside of ['0050-06-15T00:00:00Z', '0999-12-31T23:59:59.999Z']) {
      const result = input.safeParse(inputWith(path, outside));
      expect(result.error?.issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: at, message })]),
      );
    }
    // Both ends are inside the bounds; a field may add rules of its own (an expiry must lie in
    // the future), so only the bound's own message must be absent.
    for (const inside of ['1000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
      const result = input.safeParse(inputWith(path, inside));
      const boundIssues = (result.error?.issues ?? []).filter(
        (issue) => issue.path.join('.') === at.join('.') && issue.message === message,
      );
      expect(boundIssues, inside).toEqual([]);
    }
  });
});
