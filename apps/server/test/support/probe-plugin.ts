import { definePlugin, defineContract, implementPlugin, mutation, query } from '@checkline/core';
import { z } from 'zod';

/**
 * A plugin that exists only in tests: it echoes its coerced input so the surfaces' decoding can
 * be checked, and fails on purpose so error handling can be.
 */
const probeContract = defineContract('probe', {
  echo: query({ summary: 'Answers its input as decoded.' })
    .input(
      z.object({
        filter: z.object({
          active: z.boolean(),
          minScore: z.number(),
          owner: z.object({ name: z.string() }),
        }),
        ids: z.array(z.string()),
        limit: z.number().int().optional(),
      }),
    )
    .output(z.unknown()),
  explode: mutation({ summary: 'Fails with an internal error.' })
    .input(z.object({}))
    .output(z.object({})),
});

const os = implementPlugin(probeContract);

export const probePlugin = definePlugin({
  id: 'probe',
  description: 'Echoes its input and fails on purpose, for surface tests.',
  contract: probeContract,
  accessRules: [],
  router: os.router({
    echo: os.echo.handler(({ input }) => input),
    explode: os.explode.handler(() => {
      throw new Error('relation "secret_internal_table" does not exist at /srv/app/db.ts:42');
    }),
  }),
});
