import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAccessRules } from './access-rules.ts';
import { pluginClient } from './context.ts';
import { implementPlugin } from './implement-plugin.ts';
import { silentLogger } from './logger.ts';
import { definePlugin } from './plugin.ts';
import { defineContract, query } from './procedure.ts';
import { createRuntime } from './runtime.ts';
import { testPrincipal } from './testing.ts';

/** Two plugins with a procedure of the same name, answering who they are and who called. */
function echoPlugin(id: string) {
  const rules = defineAccessRules(id, { read: ['echo.read', 'Read the echo'] });
  const contract = defineContract(id, {
    whoAmI: query({ access: [rules.read], summary: 'Names the plugin and its caller.' })
      .input(z.object({}))
      .output(z.object({ plugin: z.string(), caller: z.string() })),
  });
  const os = implementPlugin(contract);
  const router = os.router({
    whoAmI: os.whoAmI.handler(({ context }) => ({
      plugin: id,
      caller: context.principal.id ?? 'none',
    })),
  });
  return {
    contract,
    plugin: definePlugin({
      id,
      description: id,
      contract,
      router,
      accessRules: Object.values(rules),
    }),
  };
}

const first = echoPlugin('first');
const second = echoPlugin('second');
let database: DatabaseHandle;
let runtime: ReturnType<typeof createRuntime>;

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createRuntime([first.plugin, second.plugin], database.db, silentLogger);
});
afterAll(async () => {
  await runtime.events.stop();
  await database.close();
});

describe('pluginClient', () => {
  it('calls the plugin its contract belongs to, as the service principal', async () => {
    const context = runtime.contextFor(testPrincipal([]));
    expect(await pluginClient(context, second.contract).whoAmI({})).toEqual({
      plugin: 'second',
      caller: 'second',
    });
    expect(await pluginClient(context, first.contract).whoAmI({})).toMatchObject({
      plugin: 'first',
    });
  });

  it('refuses a contract that defineContract did not make', () => {
    const context = runtime.contextFor(testPrincipal([]));
    expect(() => pluginClient(context, { ...second.contract })).toThrow(
      'This contract was not made by defineContract',
    );
  });
});
