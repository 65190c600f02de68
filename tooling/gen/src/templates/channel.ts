import type { Names } from '../names.ts';
import { packageFiles } from './common.ts';

/** A notification channel: a strategy calling a web service, its plugin, a fake-service test. */
export function channelTemplate({ kebab, pascal, title }: Names) {
  const id = `notification-${kebab}`;
  return {
    folder: id,
    files: {
      ...packageFiles({
        packageName: `@checkline/${id}`,
        dependencies: ['@checkline/core', '@checkline/notification-node', 'zod'],
        readme: `# @checkline/${id}

The ${title} notification channel (plugin id \`${id}\`, strategy \`${kebab}\`).

## Entry points

- \`@checkline/${id}\`: \`create${pascal}ChannelPlugin({ egress })\`, \`create${pascal}Strategy\`.

Mount it: add the package to \`apps/server/package.json\` and
\`create${pascal}ChannelPlugin({ egress })\` to \`egressChannelPlugins(egress)\` in
\`apps/server/src/plugins.ts\`. See [docs/plugin-guide.md](../../docs/plugin-guide.md).
`,
      }),
      'src/strategy.ts': `import type { Egress } from '@checkline/notification-node';
import {
  callService,
  defineNotificationStrategy,
  destination,
  markdownToText,
  secret,
  versionedSchema,
} from '@checkline/notification-node';
import { z } from 'zod';

// The administrator's settings: the service's address and the token it is called with (a
// secret bound to the address: changing the address asks for the token again).
const config = versionedSchema({
  version: 1,
  schema: z.object({
    apiBaseUrl: destination(z.url({ protocol: /^https?$/ })),
    apiToken: secret().describe('An API token of the ${title} service.'),
  }),
});

// Each user's own part: the recipient at the service, which is also the delivery's contact.
const userConfig = versionedSchema({
  version: 1,
  schema: z.object({ recipient: z.string().min(1).max(200) }),
});

export function create${pascal}Strategy(options: { egress: Egress }) {
  return defineNotificationStrategy({
    id: '${kebab}',
    displayName: '${title}',
    description: 'Sends notifications to ${title}.',
    config,
    userConfig,
    contactResolution: { type: 'user-config', field: 'recipient' },
    adminInstructions: 'Create an API token at the ${title} service and paste it here.',
    userInstructions: 'Enter your ${title} recipient.',
    send({ contact, notification, strategyConfig }) {
      return callService(options.egress, '${title}', \`\${strategyConfig.apiBaseUrl}/messages\`, {
        method: 'POST',
        headers: {
          authorization: \`Bearer \${strategyConfig.apiToken}\`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          to: contact,
          title: notification.title,
          text: notification.body ? markdownToText(notification.body, { maxLength: 2_000 }) : '',
        }),
      });
    },
  });
}
`,
      'src/plugin.ts': `import type { AnyPlugin } from '@checkline/core';
import type { Egress } from '@checkline/notification-node';
import { createChannelPlugin } from '@checkline/notification-node';
import { create${pascal}Strategy } from './strategy.ts';

/** The channel plugin; the server mounts it with its one egress guard. */
export function create${pascal}ChannelPlugin(options: { egress: Egress }): AnyPlugin {
  return createChannelPlugin({
    id: '${id}',
    description: 'Sends notifications to ${title}',
    strategy: create${pascal}Strategy(options),
  });
}
`,
      'src/index.ts': `export { create${pascal}ChannelPlugin } from './plugin.ts';
export { create${pascal}Strategy } from './strategy.ts';
`,
      'src/strategy.test.ts': `import type { FakeService } from '@checkline/notification-node/testing';
import {
  loopbackEgress,
  sendContextFor,
  startFakeService,
} from '@checkline/notification-node/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create${pascal}Strategy } from './strategy.ts';

const strategy = create${pascal}Strategy({ egress: loopbackEgress() });
const TOKEN = 'test-t0ken';

let service: FakeService;
beforeAll(async () => {
  // The service: 202 for the right token, 401 otherwise.
  service = await startFakeService((request) =>
    request.headers.authorization === \`Bearer \${TOKEN}\`
      ? { status: 202, body: { id: 'message-1' } }
      : { status: 401, body: { error: 'bad token' } },
  );
});
afterAll(() => service.close());

const send = (apiToken: string) =>
  strategy.send(
    sendContextFor(strategy, {
      contact: 'ops',
      config: { apiBaseUrl: service.url, apiToken },
      notification: { title: 'payments down', body: '**since** 12:00' },
    }),
  );

describe('the ${title} channel', () => {
  it('sends the title and the body as text to the contact', async () => {
    expect(await send(TOKEN)).toEqual({ success: true });
    const request = service.requests.at(-1)!;
    expect(request.url).toBe('/messages');
    expect(JSON.parse(request.body)).toEqual({
      to: 'ops',
      title: 'payments down',
      text: 'since 12:00',
    });
  });

  it('fails permanently when the service refuses the token', async () => {
    expect(await send('wrong-token')).toMatchObject({ success: false, permanent: true });
  });
});
`,
    },
  };
}
