import { signedClaimToken, type Keyring, type PluginRoute } from '@checkline/core';
import type { Database } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { preferences } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';

/** Where one-click unsubscribe links (RFC 8058) point; the routes below answer there (relative to the plugin). */
export const UNSUBSCRIBE_PATH = '/api/notification/unsubscribe';
const UNSUBSCRIBE_ROUTE = '/unsubscribe';

/** How long an unsubscribe link works by default. */
export const DEFAULT_UNSUBSCRIBE_LINK_DAYS = 60;

const PURPOSE = 'notification unsubscribe link v1';

/** Whose channel an unsubscribe token switches off. */
export interface UnsubscribeClaim {
  userId: string;
  /** The strategy's qualified id. */
  strategyId: string;
}

const PayloadSchema = z.object({
  u: z.uuid(),
  s: z.string().min(1).max(200),
});

const unsubscribeToken = signedClaimToken({
  purpose: PURPOSE,
  claim: PayloadSchema,
  maxPayloadChars: 600,
});

/**
 * A signed token naming `claim` until `expiresAt` (nothing is stored; rotating ENCRYPTION_KEY
 * keeps old links working while the old key stays in ENCRYPTION_KEYS_OLD).
 */
export function signUnsubscribeToken(
  keyring: Keyring,
  claim: UnsubscribeClaim & { expiresAt: Date },
): string {
  return unsubscribeToken.sign(keyring, { u: claim.userId, s: claim.strategyId }, claim.expiresAt);
}

/**
 * The claim of a token we signed that has not expired at `now`; undefined for anything else
 * (malformed, altered, signed under an unknown key, expired).
 */
export function verifyUnsubscribeToken(
  keyring: Keyring,
  token: string,
  now = new Date(),
): UnsubscribeClaim | undefined {
  const claim = unsubscribeToken.verify(keyring, token, now);
  return claim && { userId: claim.u, strategyId: claim.s };
}

/** The absolute one-click unsubscribe URL for `claim`, valid for the configured number of days. */
export function unsubscribeUrl(
  state: Pick<NotificationState, 'keyring' | 'baseUrl' | 'unsubscribeLinkMs'>,
  claim: UnsubscribeClaim,
  now = new Date(),
): string {
  const expiresAt = new Date(now.getTime() + state.unsubscribeLinkMs);
  const token = signUnsubscribeToken(state.keyring, { ...claim, expiresAt });
  return `${state.baseUrl}${UNSUBSCRIBE_PATH}/${token}`;
}

/** Switches `claim`'s channel off, whether or not the user had a preference row yet. */
async function disableChannel(db: Database, claim: UnsubscribeClaim): Promise<void> {
  await db
    .insert(preferences)
    .values({ userId: claim.userId, strategyId: claim.strategyId, enabled: false })
    .onConflictDoUpdate({
      target: [preferences.userId, preferences.strategyId],
      set: { enabled: false, updatedAt: sql`clock_timestamp()` },
    });
}

const plain = (status: number, text: string) =>
  new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });

const unsubscribeOperation = {
  operationId: 'notification.unsubscribe',
  tags: ['notification'],
  summary: 'One-click unsubscribe (RFC 8058): switches a channel off for the user the link names.',
  description:
    'The URL comes from the `List-Unsubscribe` header of a notification e-mail; mail clients POST `List-Unsubscribe=One-Click` to it. The token is signed and expires (60 days by default); no other authentication is asked. Answers a short plain-text confirmation.',
  security: [],
  requestBody: {
    required: false,
    description:
      'RFC 8058: mail clients send `List-Unsubscribe=One-Click`; the web UI sends no body. The token alone decides.',
    content: {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          properties: { 'List-Unsubscribe': { type: 'string', const: 'One-Click' } },
        },
        example: { 'List-Unsubscribe': 'One-Click' },
      },
    },
  },
  parameters: [
    {
      name: 'token',
      in: 'path',
      required: true,
      description: 'The signed token of the link.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': {
      description: 'The channel is off for that user.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    '400': {
      description: 'The link is not one of ours, was altered or has expired; nothing changed.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
  },
};

/** `POST /api/notification/unsubscribe/:token`, the target of `List-Unsubscribe`. */
const unsubscribePageOperation = {
  operationId: 'notification.unsubscribePage',
  tags: ['notification'],
  summary: 'The unsubscribe link opened in a browser: sends the person to the settings page.',
  description:
    'Answers 302 to `{FRONTEND_URL}/settings/notifications?unsubscribe=<token>` (or `?unsubscribe=invalid`), where the page asks the person to confirm and POSTs the token. A GET changes nothing: mail scanners open links.',
  security: [],
  parameters: unsubscribeOperation.parameters,
  responses: { '302': { description: 'To the settings page of the frontend.' } },
};

/**
 * `POST {UNSUBSCRIBE_PATH}/{token}` switches the channel off (RFC 8058 one-click); `GET` (a person
 * clicking the link, or a mail scanner) only sends the browser to the frontend's settings page,
 * which confirms with that POST. The token never reaches the access log.
 */
export function unsubscribeRoutes(state: NotificationState): PluginRoute[] {
  const path = `${UNSUBSCRIBE_ROUTE}/:token`;
  return [
    {
      method: 'POST',
      path,
      secretParams: ['token'],
      async handle(_request, params, meta) {
        const claim = verifyUnsubscribeToken(state.keyring, params.token ?? '');
        if (!claim) {
          return plain(400, 'This unsubscribe link is not valid or has expired. Nothing changed.');
        }
        await disableChannel(state.db, claim);
        meta.logger.info(
          { userId: claim.userId, strategyId: claim.strategyId },
          'channel switched off by an unsubscribe link',
        );
        const name = state.strategies.get(claim.strategyId)?.displayName ?? 'this channel';
        return plain(200, `Unsubscribed: you will no longer receive notifications by ${name}.`);
      },
      openapi: () => ({ [`${UNSUBSCRIBE_ROUTE}/{token}`]: { post: unsubscribeOperation } }),
    },
    {
      method: 'GET',
      path,
      secretParams: ['token'],
      handle(_request, params) {
        const token = params.token ?? '';
        const page = new URL(`${state.frontendUrl}/settings/notifications`);
        const valid = verifyUnsubscribeToken(state.keyring, token) !== undefined;
        page.searchParams.set('unsubscribe', valid ? token : 'invalid');
        return Promise.resolve(
          new Response(null, {
            status: 302,
            headers: {
              location: page.toString(),
              'cache-control': 'no-store',
              'referrer-policy': 'no-referrer',
            },
          }),
        );
      },
      openapi: () => ({ [`${UNSUBSCRIBE_ROUTE}/{token}`]: { get: unsubscribePageOperation } }),
    },
  ];
}
