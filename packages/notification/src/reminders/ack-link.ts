import { signedClaimToken, type Keyring } from '@checkline/core';
import { z } from 'zod';

/** Where acknowledgement links point (the routes in `ack-routes.ts`); the token follows. */
const ACK_PATH = '/api/notification/alerts/acknowledge';

const PURPOSE = 'notification alert acknowledgement link v1';

/** Who acknowledges which alert with a link. */
export interface AckClaim {
  alertId: string;
  userId: string;
}

const PayloadSchema = z.object({
  a: z.uuid(),
  u: z.uuid(),
});

const ackToken = signedClaimToken({ purpose: PURPOSE, claim: PayloadSchema, maxPayloadChars: 400 });

/**
 * A signed token naming the alert and the person until `expiresAt`: nothing is stored, and a
 * link for one alert or person cannot be turned into another's.
 */
export function signAckToken(keyring: Keyring, claim: AckClaim & { expiresAt: Date }): string {
  return ackToken.sign(keyring, { a: claim.alertId, u: claim.userId }, claim.expiresAt);
}

/**
 * The claim of a token we signed that has not expired at `now`; undefined for anything else. A
 * used link stays valid here: the alert's own state refuses a second acknowledgement.
 */
export function verifyAckToken(
  keyring: Keyring,
  token: string,
  now = new Date(),
): AckClaim | undefined {
  const claim = ackToken.verify(keyring, token, now);
  return claim && { alertId: claim.a, userId: claim.u };
}

/** The absolute acknowledgement URL of `claim`, valid for `linkMs`. */
export function ackUrl(
  state: { keyring: Keyring; baseUrl: string },
  claim: AckClaim,
  linkMs: number,
  now = new Date(),
): string {
  const expiresAt = new Date(now.getTime() + linkMs);
  return `${state.baseUrl}${ACK_PATH}/${signAckToken(state.keyring, { ...claim, expiresAt })}`;
}
