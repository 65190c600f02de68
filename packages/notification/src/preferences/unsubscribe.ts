import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PluginRoute } from '@checkline/core';
import type { Database } from '@checkline/db';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { preferences } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import type { Keyring } from '../strategies/keyring.ts';

/** Where one-click unsubscribe links (RFC 8058) point; the token follows. */
export const UNSUBSCRIBE_PATH = '/api/notification/unsubscribe';

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
  /** Expiry, Unix seconds. */
  e: z.number().int().positive(),
});

const macOf = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload, 'utf8').digest();

/**
 * A token naming `claim` until `expiresAt`: the payload in base64url, a dot, and its HMAC-SHA256
 * under a key derived from the keyring (so nothing new is stored, and rotating ENCRYPTION_KEY
 * keeps old links working while the old key stays in ENCRYPTION_KEYS_OLD).
 */
export function signUnsubscribeToken(
  keyring: Keyring,
  claim: UnsubscribeClaim & { expiresAt: Date },
): string {
  const payload = Buffer.from(
    JSON.stringify({
      u: claim.userId,
      s: claim.strategyId,
      e: Math.floor(claim.expiresAt.getTime() / 1_000),
    }),
  ).toString('base64url');
  const [key] = keyring.derivedKeys(PURPOSE);
  return `${payload}.${macOf(key!, payload).toString('base64url')}`;
}

/**
 * The claim of a token we signed that has not expired at `now`; undefined for anything else
 * (malformed, altered, signed under an unknown key, expired). The MAC is compared in constant
 * time, before the payload is read.
 */
export function verifyUnsubscribeToken(
  keyring: Keyring,
  token: string,
  now = new Date(),
): UnsubscribeClaim | undefined {
  const match = /^([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, payload, macText] = match as unknown as [string, string, string];
  const presented = Buffer.from(macText, 'base64url');
  const signed = keyring
    .derivedKeys(PURPOSE)
    .some((key) => timingSafeEqual(macOf(key, payload), presented));
  if (!signed) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = PayloadSchema.safeParse(decoded);
  if (!parsed.success || parsed.data.e * 1_000 <= now.getTime()) return undefined;
  return { userId: parsed.data.u, strategyId: parsed.data.s };
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
export async function disableChannel(db: Database, claim: UnsubscribeClaim): Promise<void> {
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
  const path = `${UNSUBSCRIBE_PATH}/:token`;
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
      openapi: () => ({ [`${UNSUBSCRIBE_PATH}/{token}`]: { post: unsubscribeOperation } }),
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
      openapi: () => ({ [`${UNSUBSCRIBE_PATH}/{token}`]: { get: unsubscribePageOperation } }),
    },
  ];
}
