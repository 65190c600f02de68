import type { AnyContractProcedure } from '@orpc/contract';
import { z } from 'zod';
import { createPlugins } from '../../src/plugins.ts';
import type { JsonSchema } from './input-arbitrary.ts';
import { testEnv } from './test-server.ts';

/** Every procedure of every plugin the server mounts, with its input as zod and JSON Schema. */
export function contractInputs() {
  return createPlugins(testEnv).flatMap((plugin) =>
    Object.entries(plugin.contract as Record<string, AnyContractProcedure>).map(([name, item]) => {
      const definition = item['~orpc'];
      const input = definition.inputSchema as z.ZodType | undefined;
      const schema = input
        ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
        : {};
      return {
        label: `${plugin.id}.${name}`,
        plugin: plugin.id,
        name,
        input,
        schema,
        method: definition.route.method ?? 'POST',
        path: definition.route.path ?? '',
      };
    }),
  );
}
