import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readVersioned, versionedSchema, VersionedReadError } from './versioned-schema.ts';

const step = (fromVersion: number, toVersion: number, migrate = (data: unknown) => data) => ({
  fromVersion,
  toVersion,
  description: `step ${fromVersion}`,
  migrate,
});

const v3 = versionedSchema({
  version: 3,
  schema: z.object({ host: z.string(), port: z.number(), secure: z.boolean() }),
  migrations: [
    {
      fromVersion: 1,
      toVersion: 2,
      description: 'port added, default 587',
      migrate: (data) => ({ ...(data as object), port: 587 }),
    },
    {
      fromVersion: 2,
      toVersion: 3,
      description: 'secure added, true on port 465',
      migrate: (data) => {
        const { port } = data as { port: number };
        if (port < 1) throw new Error('port out of range');
        return { ...(data as object), secure: port === 465 };
      },
    },
  ],
});

describe('versionedSchema', () => {
  it('accepts a chain from 1 to the version, and version 1 without migrations', () => {
    expect(v3.version).toBe(3);
    expect(versionedSchema({ version: 1, schema: z.string() }).migrations).toEqual([]);
    expect(
      versionedSchema({ version: 4, schema: z.string(), migrations: [step(1, 4)] }),
    ).toBeTruthy();
  });

  it.each([
    ['a gap', 3, [step(1, 2)], 'end at version 2, not at version 3'],
    [
      'a hole in the middle',
      4,
      [step(1, 2), step(3, 4)],
      'migration 3→4 does not start at version 2',
    ],
    ['a chain not starting at 1', 3, [step(2, 3)], 'migration 2→3 does not start at version 1'],
    ['a chain past the version', 2, [step(1, 2), step(2, 3)], 'not at version 2'],
    ['a step backwards', 2, [step(1, 1), step(1, 2)], 'migration 1→1 must lead to a later'],
    ['a missing chain', 2, [], 'end at version 1, not at version 2'],
    ['version 0', 0, [], 'version must be an integer from 1'],
    ['a fractional version', 1.5, [], 'version must be an integer from 1'],
  ])('refuses %s', (_name, version, migrations, message) => {
    expect(() => versionedSchema({ version, schema: z.string(), migrations })).toThrow(message);
  });
});

describe('readVersioned', () => {
  it('answers current data unchanged, not migrated', () => {
    const stored = { version: 3, data: { host: 'mx', port: 25, secure: false } };
    expect(readVersioned(v3, stored)).toEqual({ value: stored.data, migrated: false });
  });

  it('migrates step by step from any older version and validates the result', () => {
    expect(readVersioned(v3, { version: 1, data: { host: 'mx' } })).toEqual({
      value: { host: 'mx', port: 587, secure: false },
      migrated: true,
    });
    expect(readVersioned(v3, { version: 2, data: { host: 'mx', port: 465 } })).toEqual({
      value: { host: 'mx', port: 465, secure: true },
      migrated: true,
    });
  });

  it('names the migration that threw', () => {
    const read = () => readVersioned(v3, { version: 2, data: { host: 'mx', port: 0 } });
    expect(read).toThrow(VersionedReadError);
    expect(read).toThrow('migration 2→3 (secure added, true on port 465): port out of range');
  });

  it('names the validation and the failing field, never the stored values', () => {
    const read = () =>
      readVersioned(v3, { version: 3, data: { host: 'mx', port: 'hunter2', secure: true } });
    expect(read).toThrow(/^validation against version 3: port: /);
    expect(read).not.toThrow(/hunter2/);
  });

  it.each([0, 4, 2.5])('refuses stored version %s', (version) => {
    expect(() => readVersioned(v3, { version, data: {} })).toThrow(
      `stored version ${version}: not a version of this schema (1 to 3)`,
    );
  });

  it('refuses a stored version that a longer step skipped over', () => {
    const skipping = versionedSchema({
      version: 3,
      schema: z.object({}),
      migrations: [step(1, 3)],
    });
    expect(() => readVersioned(skipping, { version: 2, data: {} })).toThrow(
      'stored version 2: no migration leads from it to version 3',
    );
  });
});
