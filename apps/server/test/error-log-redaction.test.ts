import { definePlugin, defineContract, implementPlugin, mutation, query } from '@checkline/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestServer, type TestServer } from './support/test-server.ts';

/*
 * A statement that fails in the database with a secret bound as its parameter: PostgreSQL
 * quotes a rejected value in its message (integer) or in its detail (json), drizzle copies the
 * parameters into its error and its message. None of it may reach the log.
 */
const failingStatements = {
  integer: (secret: string) => sql`select ${secret}::integer as n`,
  json: (secret: string) => sql`select ${secret}::jsonb as j`,
};
const SecretInput = z.object({ secret: z.string(), cast: z.enum(['integer', 'json']) });

const leakContract = defineContract('leak', {
  readSecret: query({ summary: 'Runs a failing read carrying a secret.' })
    .input(SecretInput)
    .output(z.unknown()),
  writeSecret: mutation({ summary: 'Runs a failing write carrying a secret.' })
    .input(SecretInput)
    .output(z.unknown()),
});
const os = implementPlugin(leakContract);
const runFailing = async ({
  context,
  input,
}: {
  context: any;
  input: z.infer<typeof SecretInput>;
}) => context.db.execute(failingStatements[input.cast](input.secret));
const leakPlugin = definePlugin({
  id: 'leak',
  description: 'Test plugin whose statements fail carrying a secret.',
  contract: leakContract,
  accessRules: [],
  router: os.router({
    readSecret: os.readSecret.handler(runFailing),
    writeSecret: os.writeSecret.handler(runFailing),
  }),
});

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ plugins: [leakPlugin], principals: {} });
});
afterAll(() => server.close());

const cases = (['readSecret', 'writeSecret'] as const).flatMap((procedure) =>
  (['integer', 'json'] as const).flatMap((cast) =>
    (['keyed', 'rest'] as const).map((surface) => ({ procedure, cast, surface })),
  ),
);

describe('a failing statement carrying a secret', () => {
  it.each(cases)('$procedure ($cast) over $surface: 500, logged without the secret', async (c) => {
    const secret = `scrypt$secret-${c.procedure}-${c.cast}-${c.surface}`;
    const input = { secret, cast: c.cast };
    const before = server.logLines.length;
    const response =
      c.surface === 'keyed'
        ? await server.keyed('leak', { [c.procedure]: input })
        : await server.rest(c.procedure === 'readSecret' ? 'GET' : 'POST', `leak/${c.procedure}`, {
            ...(c.procedure === 'readSecret'
              ? { query: new URLSearchParams(input).toString() }
              : { body: input }),
          });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain(secret);

    const logged = server.logLines.slice(before);
    // The failure is logged, with the statement's text, so the search below is not vacuous.
    const failure = logged.map((line) => JSON.parse(line)).find((line) => line.err);
    expect(failure?.err.message).toContain(`::${c.cast === 'json' ? 'jsonb' : 'integer'}`);
    expect(logged.join('\n')).not.toContain('secret-');
  });
});
