import type { AnyPlugin } from '@checkline/core';
import type { ProcedureMeta } from '@checkline/core/contract';
import type { AnyContractProcedure } from '@orpc/contract';
import { z } from 'zod';
import { createPlugins } from '../../src/plugins.ts';
import type { JsonSchema } from './input-arbitrary.ts';
import { testEnv } from './test-server.ts';

/** One procedure of a mounted plugin, as the table-driven tests walk them. */
export interface MountedProcedure {
  pluginId: string;
  name: string;
  procedure: AnyContractProcedure;
  definition: AnyContractProcedure['~orpc'];
  meta: ProcedureMeta;
}

/** Every procedure of every plugin in `plugins`, in contract order. */
export function mountedProcedures(plugins: readonly AnyPlugin[]): MountedProcedure[] {
  return plugins.flatMap((plugin) =>
    Object.entries(plugin.contract as Record<string, AnyContractProcedure>).map(
      ([name, procedure]) => ({
        pluginId: plugin.id,
        name,
        procedure,
        definition: procedure['~orpc'],
        meta: procedure['~orpc'].meta as ProcedureMeta,
      }),
    ),
  );
}

/** Every procedure of every plugin the server mounts, with its input as zod and JSON Schema. */
export function contractInputs() {
  return mountedProcedures(createPlugins(testEnv)).map(({ pluginId, name, definition }) => {
    const input = definition.inputSchema as z.ZodType | undefined;
    const schema = input
      ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
      : {};
    return {
      label: `${pluginId}.${name}`,
      plugin: pluginId,
      name,
      input,
      schema,
      method: definition.route.method ?? 'POST',
      path: definition.route.path ?? '',
    };
  });
}
