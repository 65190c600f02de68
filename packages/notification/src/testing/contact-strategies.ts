import { z } from 'zod';
import type { NotificationStrategy } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';
import { recordingStrategy } from './recording-strategy.ts';

/**
 * One recording strategy per contact resolution, as delivery tests reach users through them:
 * `email` (auth-email), `github-mail` (auth-provider github), `sms` (user-config `phone`), `chat`
 * (oauth-link) and `pager` (custom, looking the user up in `pagerNumbers`). `email` gets
 * `emailLayout` as its layoutConfig when given.
 */
export function contactStrategies(
  options: { emailLayout?: NotificationStrategy['layoutConfig'] } = {},
) {
  const pagerNumbers = new Map<string, string>();
  return {
    /** The custom resolver's directory: user id to pager number. */
    pagerNumbers,
    email: recordingStrategy({
      id: 'email',
      contactResolution: { type: 'auth-email' },
      ...(options.emailLayout && { layoutConfig: options.emailLayout }),
    }),
    github: recordingStrategy({
      id: 'github-mail',
      contactResolution: { type: 'auth-provider', provider: 'github' },
    }),
    sms: recordingStrategy({
      id: 'sms',
      contactResolution: { type: 'user-config', field: 'phone' },
      userConfig: versionedSchema({
        version: 1,
        schema: z.object({ phone: z.string().optional() }),
      }),
    }),
    chat: recordingStrategy({
      id: 'chat',
      contactResolution: { type: 'oauth-link' },
      oauth: {
        clientId: () => 'client',
        clientSecret: () => 'secret',
        scopes: ['chat:write'],
        authorizationUrl: () => 'https://chat.example/authorize',
        tokenUrl: () => 'https://chat.example/token',
        extractExternalId: (token) => String(token.user_id),
      },
    }),
    pager: recordingStrategy({
      id: 'pager',
      contactResolution: {
        type: 'custom',
        resolve: ({ userId }) => Promise.resolve(pagerNumbers.get(userId)),
      },
    }),
  };
}
