import { OAUTH_ROUTE } from './link-flow.ts';

const strategyIdParameter = {
  name: 'strategyId',
  in: 'path',
  required: true,
  description: 'Qualified id (`{pluginId}.{id}`) of a strategy with account linking.',
  schema: { type: 'string', pattern: '^[a-z][a-z0-9-]*\\.[a-z0-9-]+$' },
};

const redirectTo = (where: string) => ({
  description: `Redirect to ${where}.`,
  headers: { location: { schema: { type: 'string', format: 'uri' } } },
});

const jsonError = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string' },
          message: { type: 'string' },
          requestId: { type: 'string' },
        },
      },
    },
  },
});

const jsonAnswer = (description: string, properties: Record<string, unknown>) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', required: Object.keys(properties), properties },
    },
  },
});

/** Changes made with the session cookie come as JSON (a plain form cannot send it). */
const emptyJsonBody = {
  required: true,
  content: {
    'application/json': { schema: { type: 'object', additionalProperties: false } },
  },
};
const refusedChange = jsonError(
  'A session cookie without our `Origin`, or a change not sent as `application/json`.',
);

const common = {
  tags: ['notification'],
  parameters: [strategyIdParameter],
  security: [{ sessionCookie: [] }],
};

/** The four linking routes, at their templated paths (strategies are known only at run time). */
export function oauthPaths(): Record<string, Record<string, unknown>> {
  const path = (action: string) => `${OAUTH_ROUTE}/{strategyId}/${action}`;
  return {
    [path('auth')]: {
      get: {
        ...common,
        operationId: 'notification.oauth.auth',
        summary: "Starts linking the signed-in user's account on the strategy's platform.",
        description:
          "Needs the user's session and the strategy's `.use` rule. Stores a single-use state (10 minutes) and redirects to the provider with PKCE (S256) and `redirect_uri` `{BASE_URL}/api/notification/oauth/{strategyId}/callback`. Every failure redirects to the auth error page.",
        parameters: [
          strategyIdParameter,
          {
            name: 'returnTo',
            in: 'query',
            required: false,
            description:
              'A path of the web UI to return to (default `/settings/notifications`); absolute and `//host` addresses are refused.',
            schema: { type: 'string' },
          },
        ],
        responses: { '302': redirectTo("the provider's consent page, or the auth error page") },
      },
    },
    [path('callback')]: {
      get: {
        ...common,
        operationId: 'notification.oauth.callback',
        summary: "The provider's return: exchanges the code and stores the link.",
        description:
          'Accepts only a stored, unexpired, unused state of the signed-in user. Stores the tokens encrypted and the external id, then redirects to `{FRONTEND_URL}/settings/notifications?linked={strategyId}` (or the return path given). Every failure redirects to the auth error page with a message for the user.',
        parameters: [
          strategyIdParameter,
          ...['code', 'state', 'error'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          })),
        ],
        responses: { '302': redirectTo('the web UI, or the auth error page') },
      },
    },
    [path('refresh')]: {
      post: {
        ...common,
        operationId: 'notification.oauth.refresh',
        summary: "Renews the caller's tokens on the strategy now.",
        description:
          'One refresh at a time per user and strategy across processes. Send it with the session cookie, as `application/json` (body `{}`), from the server or the web UI (`Origin`).',
        requestBody: emptyJsonBody,
        responses: {
          '200': jsonAnswer('Renewed (or renewed meanwhile by another request).', {
            strategyId: { type: 'string' },
            refreshed: { type: 'boolean' },
            expiresAt: { type: ['string', 'null'], format: 'date-time' },
            scopes: { type: 'array', items: { type: 'string' } },
          }),
          '401': jsonError('No signed-in user.'),
          '403': refusedChange,
          '404': jsonError('Unknown strategy, or no linked account.'),
          '409': jsonError('The provider refused the grant: link the account again.'),
          '503': jsonError('The provider could not be reached.'),
        },
      },
    },
    [path('unlink')]: {
      delete: {
        ...common,
        operationId: 'notification.oauth.unlink',
        summary: "Removes the caller's link: revoked at the provider where it offers revocation.",
        description:
          'Deletes the tokens and the external id. A revocation that fails is logged and the link is removed all the same. Send it with the session cookie, as `application/json` (body `{}`), from the server or the web UI (`Origin`).',
        requestBody: emptyJsonBody,
        responses: {
          '200': jsonAnswer('Unlinked.', {
            strategyId: { type: 'string' },
            unlinked: { type: 'boolean', const: true },
            revoked: { type: 'boolean' },
          }),
          '401': jsonError('No signed-in user.'),
          '403': refusedChange,
          '404': jsonError('Unknown strategy, or no linked account.'),
        },
      },
    },
  };
}
