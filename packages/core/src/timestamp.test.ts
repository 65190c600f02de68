import { describe, expect, it } from 'vitest';
import { timestampInput } from './timestamp.ts';

const messages = (schema: ReturnType<typeof timestampInput>, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

describe('timestampInput', () => {
  const schema = timestampInput();
  const bounded = 'A timestamp lies between the years 1000 and 9999';

  it('keeps the years 1000 to 9999, bounds included, with or without an offset', () => {
    for (const value of [
      '1000-01-01T00:00:00Z',
      '2026-11-23T12:00:00.123+05:30',
      '9999-12-31T23:59:59.999Z',
    ]) {
      expect(messages(schema, value), value).toEqual([]);
    }
  });

  it('refuses instants outside them once the offset is applied', () => {
    expect(messages(schema, '0050-06-15T00:00:00Z')).toEqual([bounded]);
    expect(messages(schema, '0999-12-31T23:59:59.999Z')).toEqual([bounded]);
    expect(messages(schema, '1000-01-01T00:30:00+01:00')).toEqual([bounded]);
    expect(messages(schema, '9999-12-31T23:00:00-05:00')).toEqual([bounded]);
  });

  it('reports a malformed value once, as a format problem', () => {
    expect(messages(schema, 'yesterday')).toEqual(['Invalid ISO datetime']);
  });

  it('refuses offsets when asked to take UTC only', () => {
    expect(messages(timestampInput({ offset: false }), '2026-01-01T00:00:00+01:00')).toHaveLength(
      1,
    );
  });
});
