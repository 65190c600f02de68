import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { strictInput } from './strict-input.ts';

const unknownKeys = (schema: z.ZodType, input: unknown) =>
  (schema.safeParse(input).error?.issues ?? [])
    .filter((issue) => issue.code === 'unrecognized_keys')
    .map((issue) => ({ path: issue.path.join('.'), keys: issue.keys }));

describe('strictInput', () => {
  const input = strictInput(
    z
      .object({
        name: z.string().describe('What it is called'),
        items: z.array(z.object({ id: z.string() })).optional(),
        target: z
          .discriminatedUnion('type', [
            z.object({ type: z.literal('http'), url: z.string() }),
            z.object({ type: z.literal('tcp'), port: z.number() }),
          ])
          .nullable()
          .default(null),
        metadata: z.record(z.string(), z.object({ value: z.string() })).optional(),
        loose: z.looseObject({ kept: z.string() }).optional(),
      })
      .refine((value) => value.name !== 'forbidden', 'Not that name'),
  );

  it('refuses an unknown key at the root and inside arrays, unions and records', () => {
    expect(
      unknownKeys(input, {
        name: 'a',
        extra: 1,
        items: [{ id: '1', also: 2 }],
        target: { type: 'tcp', port: 1, url: 'x' },
        metadata: { k: { value: 'v', more: true } },
      }),
    ).toEqual([
      { path: 'items.0', keys: ['also'] },
      { path: 'target', keys: ['url'] },
      { path: 'metadata.k', keys: ['more'] },
      { path: '', keys: ['extra'] },
    ]);
  });

  it('keeps what the schema did: refinements, defaults, loose objects and descriptions', () => {
    expect(input.safeParse({ name: 'forbidden' }).success).toBe(false);
    expect(input.parse({ name: 'a', loose: { kept: 'k', other: 1 } })).toEqual({
      name: 'a',
      target: null,
      loose: { kept: 'k', other: 1 },
    });
    const shape = (input as unknown as { _zod: { def: { in?: unknown; shape?: unknown } } })._zod
      .def as { shape: { name: z.ZodType } };
    expect(z.globalRegistry.get(shape.shape.name)?.description).toBe('What it is called');
  });

  it('leaves a procedure without input as it is', () => {
    const none: Parameters<typeof strictInput>[0] = undefined;
    expect(strictInput(none)).toBeUndefined();
  });
});
