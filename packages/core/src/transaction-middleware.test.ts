import { createTestDatabase } from '@checkline/db/testing';
import type { DatabaseHandle } from '@checkline/db';
import { eventOutbox } from '@checkline/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from './events.ts';
import { implementPlugin } from './implement-plugin.ts';
import { definePlugin } from './plugin.ts';
import { defineContract, mutation } from './procedure.ts';
import { createPluginHarness, testPrincipal } from './testing.ts';

const poked = defineEvent<{ n: number }>('probe.poked');
const seen: number[] = [];

const contract = defineContract('probe', {
  poke: mutation({ summary: 'Writes a row.' })
    .input(z.object({ n: z.number(), fail: z.boolean() }))
    .output(z.object({ seenInside: z.number(), inTransaction: z.boolean() })),
  pokeOutside: mutation({ transaction: false, summary: 'Writes a row outside a transaction.' })
    .input(z.object({}))
    .output(z.object({ inTransaction: z.boolean() })),
});
const os = implementPlugin(contract);
const plugin = definePlugin({
  id: 'probe',
  description: 'A plugin used only in this test.',
  contract,
  accessRules: [],
  router: os.router({
    poke: os.poke.handler(async ({ context, input }) => {
      context.emit(poked, { n: input.n });
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (input.fail) throw new Error('rolled back on purpose');
      return { seenInside: seen.length, inTransaction: context.inTransaction === true };
    }),
    pokeOutside: os.pokeOutside.handler(({ context }) => ({
      inTransaction: context.inTransaction === true,
    })),
  }),
});

let database: DatabaseHandle;
let harness: ReturnType<typeof createPluginHarness>;
const caller = testPrincipal([]);

beforeAll(async () => {
  database = await createTestDatabase();
  harness = createPluginHarness([plugin], database.db);
  harness.runtime.events.subscribe(poked, ({ n }) => void seen.push(n));
});
afterAll(() => database.close());

describe('transaction middleware', () => {
  it('runs a mutation in a transaction and dispatches its events only after commit', async () => {
    const output = await harness.client('probe', contract, caller).poke({ n: 1, fail: false });
    expect(output).toEqual({ seenInside: 0, inTransaction: true });
    await harness.runtime.events.settled();
    expect(seen).toEqual([1]);
  });

  it('never writes nor dispatches the events of a mutation that rolls back', async () => {
    seen.length = 0;
    await expect(
      harness.client('probe', contract, caller).poke({ n: 2, fail: true }),
    ).rejects.toThrow();
    await harness.runtime.events.settled();
    expect(seen).toEqual([]);
    const written = await database.db.select().from(eventOutbox);
    expect(written.map((row) => row.payload)).toEqual([{ n: 1 }]);
  });

  it('leaves mutations declared transaction: false outside a transaction', async () => {
    await expect(harness.client('probe', contract, caller).pokeOutside({})).resolves.toEqual({
      inTransaction: false,
    });
  });
});
