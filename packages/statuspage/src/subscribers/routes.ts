import { createHash } from 'node:crypto';
import type { PluginRoute, RouteMeta } from '@checkline/core';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { SlugSchema } from '../schemas.ts';
import { findPublishedPage, getPage } from '../service.ts';
import type { Subscriptions } from './context.ts';
import { CONFIRM_ROUTE, UNSUBSCRIBE_ROUTE, confirmUrl, sendMail } from './context.ts';
import { subscriptionPage } from './html.ts';
import { confirmationMail } from './mail.ts';
import { SubscribeBodySchema } from './schemas.ts';
import { confirmSubscription, removeSubscriber, requestSubscription } from './service.ts';
import { isConfirmTokenShaped, verifyUnsubscribeToken } from './tokens.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });

const failure = (status: number, code: string, message: string, meta: RouteMeta) =>
  json(status, { code, message, requestId: meta.requestId });

/** The same answer for a new, a pending and an already confirmed address. */
const ACCEPTED = {
  status: 'accepted',
  message:
    'If this address can receive mail, a confirmation link is on its way; nothing else is sent before it is followed.',
};

async function readEmail(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.startsWith('application/json')) return await request.json();
    if (type.startsWith('application/x-www-form-urlencoded')) {
      return Object.fromEntries(new URLSearchParams(await request.text()));
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Spends a point of each budget; the refusal of the first one spent, if any. */
async function spend(subscriptions: Subscriptions, pageId: string, email: string) {
  const { perAddress, perPage } = subscriptions.limits();
  const addressKey = createHash('sha256').update(email).digest('base64url');
  try {
    await perPage?.consume(pageId);
    await perAddress?.consume(addressKey);
    return undefined;
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}

function subscribeRoute(subscriptions: Subscriptions): PluginRoute {
  return {
    method: 'POST',
    path: '/public/:slug/subscribe',
    async handle(request, params, meta) {
      const slug = SlugSchema.safeParse(params.slug);
      const { db } = subscriptions.service();
      const page = slug.success ? await findPublishedPage(db, slug.data) : undefined;
      if (!page) return failure(404, 'NOT_FOUND', 'Status page not found', meta);
      const body = SubscribeBodySchema.safeParse(await readEmail(request));
      if (!body.success) {
        return failure(400, 'BAD_REQUEST', 'Send {"email": "you@example.com"}', meta);
      }
      const { email } = body.data;
      const refused = await spend(subscriptions, page.id, email);
      if (refused) {
        const seconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1_000));
        const answer = failure(429, 'TOO_MANY_REQUESTS', 'Too many subscription requests', meta);
        answer.headers.set('retry-after', String(seconds));
        return answer;
      }
      const expiresAt = new Date(subscriptions.now().getTime() + subscriptions.confirmTtlMs);
      const pending = await requestSubscription(db, page.id, email, expiresAt);
      if (pending) {
        // Mailed after answering: how long the SMTP server takes says nothing to the caller.
        const mail = confirmationMail(page, confirmUrl(subscriptions, pending.token));
        void sendMail(subscriptions, email, mail).catch((error: unknown) =>
          meta.logger.warn({ err: error, pageId: page.id }, 'subscription confirmation not sent'),
        );
      }
      return json(202, ACCEPTED);
    },
  };
}

const tokenParameter = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The token of the link in the mail.',
  schema: { type: 'string' },
};

const htmlAnswer = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** A link of a mail: GET shows a button (mail scanners open links), POST acts. */
function linkRoutes(
  path: string,
  names: { operation: string; summary: string; heading: string; ask: string; button: string },
  act: (token: string, meta: RouteMeta) => Promise<Response>,
): PluginRoute[] {
  const openapiPath = `${path}/{token}`;
  return [
    {
      method: 'GET',
      path: `${path}/:token`,
      secretParams: ['token'],
      handle: (request) =>
        Promise.resolve(
          subscriptionPage(200, names.heading, names.ask, {
            label: names.button,
            action: new URL(request.url).pathname,
          }),
        ),
      openapi: () => ({
        [openapiPath]: {
          get: {
            tags: ['statuspage'],
            operationId: `statuspage.${names.operation}Page`,
            summary: `${names.summary} (the link opened: a page with a button that POSTs).`,
            description: 'Changes nothing: mail scanners open links.',
            security: [],
            parameters: [tokenParameter],
            responses: { '200': htmlAnswer('A page asking to confirm with a button.') },
          },
        },
      }),
    },
    {
      method: 'POST',
      path: `${path}/:token`,
      secretParams: ['token'],
      handle: (_request, params, meta) => act(params.token ?? '', meta),
      openapi: () => ({
        [openapiPath]: {
          post: {
            tags: ['statuspage'],
            operationId: `statuspage.${names.operation}`,
            summary: names.summary,
            description:
              'Open to everyone: the token is the credential. Answers a short HTML page.',
            security: [],
            parameters: [tokenParameter],
            responses: {
              '200': htmlAnswer('Done.'),
              '400': htmlAnswer('Not a valid link (forged, used or expired); nothing changed.'),
            },
          },
        },
      }),
    },
  ];
}

/** The anonymous subscription routes: subscribe, confirm, unsubscribe. */
export function subscriptionRoutes(subscriptions: Subscriptions): PluginRoute[] {
  const confirm = async (token: string, meta: RouteMeta) => {
    const { db } = subscriptions.service();
    const confirmed = isConfirmTokenShaped(token)
      ? await confirmSubscription(db, token, subscriptions.now())
      : undefined;
    if (!confirmed) {
      return subscriptionPage(
        400,
        'Link not valid',
        'This confirmation link is not valid, was used already or has expired. Nothing changed.',
      );
    }
    const page = await getPage(db, confirmed.pageId);
    meta.logger.info({ pageId: page.id }, 'status-page subscription confirmed');
    return subscriptionPage(
      200,
      'Subscribed',
      `You will receive updates of ${page.title} by e-mail. Every message has a link to unsubscribe.`,
    );
  };
  const unsubscribe = async (token: string, meta: RouteMeta) => {
    const subscriberId = verifyUnsubscribeToken(subscriptions.keyring, token);
    if (!subscriberId) {
      return subscriptionPage(
        400,
        'Link not valid',
        'This unsubscribe link is not valid. Nothing changed.',
      );
    }
    if (await removeSubscriber(subscriptions.service().db, subscriberId)) {
      meta.logger.info({ subscriberId }, 'status-page subscription ended by its link');
    }
    // The same answer when it had ended already: the link's work is done either way.
    return subscriptionPage(
      200,
      'Unsubscribed',
      'You will no longer receive updates of this status page.',
    );
  };
  return [
    {
      ...subscribeRoute(subscriptions),
      openapi: () => ({
        '/public/{slug}/subscribe': {
          post: {
            tags: ['statuspage'],
            operationId: 'statuspage.subscribe',
            summary: 'Subscribes an e-mail address to a published page (double opt-in).',
            description:
              'Open to everyone. Mails a confirmation link; nothing else is sent before it is followed, and no account is created. The answer is the same whether the address was new, pending or subscribed already. Limited per page and per address (429 with `Retry-After`).',
            security: [],
            parameters: [
              {
                name: 'slug',
                in: 'path',
                required: true,
                schema: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 60 },
              },
            ],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['email'],
                    additionalProperties: false,
                    properties: { email: { type: 'string', format: 'email', maxLength: 254 } },
                  },
                },
                'application/x-www-form-urlencoded': {
                  schema: {
                    type: 'object',
                    required: ['email'],
                    properties: { email: { type: 'string', format: 'email', maxLength: 254 } },
                  },
                },
              },
            },
            responses: {
              '202': {
                description: 'Accepted; a confirmation link is mailed if needed.',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: { status: { type: 'string' }, message: { type: 'string' } },
                    },
                  },
                },
              },
              '400': { $ref: '#/components/responses/BadRequest' },
              '404': { $ref: '#/components/responses/NotFound' },
              '429': { $ref: '#/components/responses/TooManyRequests' },
            },
          },
        },
      }),
    },
    ...linkRoutes(
      CONFIRM_ROUTE,
      {
        operation: 'confirmSubscription',
        summary: 'Confirms a status-page subscription',
        heading: 'Confirm your subscription',
        ask: 'Confirm that you want to receive updates of this status page by e-mail.',
        button: 'Confirm subscription',
      },
      confirm,
    ),
    ...linkRoutes(
      UNSUBSCRIBE_ROUTE,
      {
        operation: 'unsubscribe',
        summary: 'Ends a status-page subscription',
        heading: 'Unsubscribe',
        ask: 'Stop receiving updates of this status page by e-mail?',
        button: 'Unsubscribe',
      },
      unsubscribe,
    ),
  ];
}
