import type { Names } from '../names.ts';
import { packageFiles } from './common.ts';

/** A health-check type that connects to a TCP port, its plugin, and a loopback test. */
export function checkTypeTemplate({ kebab, camel, pascal, title }: Names) {
  const id = `check-${kebab}`;
  return {
    folder: id,
    files: {
      ...packageFiles({
        packageName: `@checkline/${id}`,
        dependencies: ['@checkline/core', '@checkline/healthcheck', 'zod'],
        readme: `# @checkline/${id}

The ${title} health-check type (plugin id \`${id}\`, type \`${id}.${kebab}\`).

## Entry points

- \`@checkline/${id}\`: \`${camel}CheckPlugin\`, \`${camel}CheckType\`.

Mount it: add the package to \`apps/server/package.json\` and \`${camel}CheckPlugin\` to the list
\`apps/server/src/plugins.ts\` returns, after the healthcheck plugin. See
[docs/plugin-guide.md](../../docs/plugin-guide.md).
`,
      }),
      'src/check-type.ts': `import {
  checkHost,
  configTimeoutMs,
  defineHealthCheckType,
  onceConnected,
  pass,
  runAgainstHost,
} from '@checkline/healthcheck/check-kit';
import { connect } from 'node:net';
import { z } from 'zod';

const ${pascal}ConfigSchema = z.object({
  host: checkHost,
  port: z.number().int().min(1).max(65_535),
  timeoutMs: configTimeoutMs,
});

/** Passes when a TCP connection to the host and port opens. */
export const ${camel}CheckType = defineHealthCheckType({
  id: '${kebab}',
  displayName: '${title}',
  description: 'Opens a TCP connection to a host and port.',
  config: ${pascal}ConfigSchema,
  // Judged by the target policy when a check is saved and before every run.
  targets: (config) => [{ path: 'host', host: config.host }],
  run(config, options) {
    const name = \`\${config.host}:\${config.port}\`;
    return runAgainstHost(
      config,
      options,
      (limit) => \`Timed out after \${limit} ms connecting to \${name}\`,
      async (target, { signal, startedAt }) => {
        await onceConnected(
          () => connect({ host: config.host, port: config.port, lookup: target.lookup }),
          'connect',
          () => undefined,
          signal,
        );
        return pass(startedAt, \`Connected to \${name}\`);
      },
    );
  },
});
`,
      'src/plugin.ts': `import type { AnyPlugin } from '@checkline/core';
import { definePlugin } from '@checkline/core';
import { healthCheckTypeExtensionPoint } from '@checkline/healthcheck/check-kit';
import { ${camel}CheckType } from './check-type.ts';

/** Adds the check type as \`${id}.${kebab}\`. */
export const ${camel}CheckPlugin: AnyPlugin = definePlugin({
  id: '${id}',
  // It registers into healthcheck's extension point, so it starts after it.
  dependsOn: ['healthcheck'],
  description: 'The ${title} health check.',
  contract: {},
  router: {},
  accessRules: [],
  register(api) {
    api.extensionPoints
      .get(healthCheckTypeExtensionPoint, api.pluginId)
      .register(${camel}CheckType);
  },
});
`,
      'src/index.ts': `export { ${camel}CheckType } from './check-type.ts';
export { ${camel}CheckPlugin } from './plugin.ts';
`,
      'src/check-type.test.ts': `import { checkTypeHarness, closedPort, startTcpTarget } from '@checkline/healthcheck/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ${camel}CheckType } from './check-type.ts';

let target: Awaited<ReturnType<typeof startTcpTarget>>;
beforeAll(async () => {
  target = await startTcpTarget();
});
afterAll(() => target.close());

// Saved and run through the server's own code, with a target policy that reaches only loopback.
const check = checkTypeHarness(${camel}CheckType);

describe('the ${title} check type', () => {
  it('passes when the port accepts a connection', async () => {
    const config = await check.save({ host: '127.0.0.1', port: target.port });
    expect(await check.run(config)).toMatchObject({ status: 'pass' });
  });

  it('fails when nothing listens', async () => {
    const outcome = await check.run({ host: '127.0.0.1', port: await closedPort() });
    expect(outcome.status).toBe('fail');
  });

  it('refuses an unknown config key on save', async () => {
    await expect(check.save({ host: '127.0.0.1', port: 1, colour: 'red' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
`,
    },
  };
}
