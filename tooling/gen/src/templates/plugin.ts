import type { Names } from '../names.ts';
import { packageFiles } from './common.ts';

/** A plugin with an access rule, a one-procedure contract, its router and a test. */
export function pluginTemplate({ kebab: id, camel, title }: Names) {
  return {
    folder: id,
    files: {
      ...packageFiles({
        packageName: `@checkline/${id}`,
        dependencies: ['@checkline/core', 'zod'],
        devDependencies: ['@checkline/db'],
        readme: `# @checkline/${id}

The ${title} plugin (id \`${id}\`).

## Entry points

- \`@checkline/${id}\`: \`${camel}Plugin\`, \`${camel}Contract\`, \`${camel}Access\`.

Mount it: add the package to \`apps/server/package.json\` and \`${camel}Plugin\` to the list
\`apps/server/src/plugins.ts\` returns. See [docs/plugin-guide.md](../../docs/plugin-guide.md).
`,
      }),
      'src/access.ts': `import { defineAccessRules } from '@checkline/core/contract';

export const ${camel}Access = defineAccessRules('${id}', {
  read: ['${id}.read', 'Read ${title.toLowerCase()}'],
});
`,
      'src/contract.ts': `import { defineContract, query } from '@checkline/core/contract';
import { z } from 'zod';
import { ${camel}Access } from './access.ts';

// Browser-safe: zod and @checkline/core/contract only.
export const ${camel}Contract = defineContract('${id}', {
  getGreeting: query({ access: [${camel}Access.read], summary: 'A greeting for the caller.' })
    .input(z.object({ name: z.string().min(1).max(100) }))
    .output(z.object({ greeting: z.string() })),
});
`,
      'src/service.ts': `/** The plugin's logic, plain functions the router calls. */
export const greetingFor = (name: string) => \`Hello, \${name}\`;
`,
      'src/router.ts': `import { implementPlugin } from '@checkline/core';
import { ${camel}Contract } from './contract.ts';
import { greetingFor } from './service.ts';

const os = implementPlugin(${camel}Contract);

export const ${camel}Router = os.router({
  getGreeting: os.getGreeting.handler(({ input }) => ({ greeting: greetingFor(input.name) })),
});
`,
      'src/plugin.ts': `import { definePlugin } from '@checkline/core';
import { ${camel}Access } from './access.ts';
import { ${camel}Contract } from './contract.ts';
import { ${camel}Router } from './router.ts';

export const ${camel}Plugin = definePlugin({
  id: '${id}',
  // The plugins this one calls or registers into: the server starts them first.
  dependsOn: [],
  description: '${title}.',
  contract: ${camel}Contract,
  router: ${camel}Router,
  accessRules: Object.values(${camel}Access),
});
`,
      'src/index.ts': `export { ${camel}Access } from './access.ts';
export { ${camel}Contract } from './contract.ts';
export { ${camel}Plugin } from './plugin.ts';
`,
      'src/plugin.test.ts': `import { createPluginHarness, testPrincipal } from '@checkline/core/testing';
import type { DatabaseHandle } from '@checkline/db';
import { createTestDatabase } from '@checkline/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ${camel}Access } from './access.ts';
import { ${camel}Contract } from './contract.ts';
import { ${camel}Plugin } from './plugin.ts';

let database: DatabaseHandle;
let harness: ReturnType<typeof createPluginHarness>;
beforeAll(async () => {
  database = await createTestDatabase();
  harness = createPluginHarness([${camel}Plugin], database.db);
});
afterAll(() => database.close());

const reader = testPrincipal([${camel}Access.read]);
const nobody = testPrincipal([]);
const as = (principal: typeof reader) => harness.client('${id}', ${camel}Contract, principal);

describe('the ${id} plugin', () => {
  it('greets a caller holding the read rule', async () => {
    await expect(as(reader).getGreeting({ name: 'Ada' })).resolves.toEqual({
      greeting: 'Hello, Ada',
    });
  });

  it('refuses a caller without the rule', async () => {
    await expect(as(nobody).getGreeting({ name: 'Ada' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
`,
    },
  };
}
