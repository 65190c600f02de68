import { randomBytes } from 'node:crypto';
import { macMatches, macText } from '@checkline/core';
import { readCookie } from './cookies.ts';
import { accountKey } from './rate-limit.ts';

const DEVICE_COOKIE = 'checkline_device';

/** Only the sign-in routes read it, so no other request carries it. */
const DEVICE_COOKIE_PATH = '/api/auth-backend';

/** How long a device stays known after its last successful sign-in. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

const VERSION = 'd1';
const NONCE = /^[A-Za-z0-9_-]{22}$/;
const ISSUED = /^[0-9]{1,12}$/;

/** A device that signed in to `account` before, named by the nonce of its cookie. */
export interface KnownDevice {
  id: string;
}

/**
 * Device cookies: after a successful sign-in the browser gets a signed cookie naming the account
 * and a random nonce. Sign-in attempts that present a valid one for the account they try are
 * counted against that device alone, so a stranger's failures cannot lock its owner out.
 * Signed with the first key, accepted under any (keys derived from the server's keyring).
 */
export class DeviceCookies {
  constructor(
    private readonly keys: readonly Uint8Array[],
    private readonly secure: boolean,
    private readonly now: () => number = Date.now,
  ) {
    if (keys.length === 0) throw new Error('device cookies need at least one key');
  }

  /** The `Set-Cookie` value for a device that just signed in to `email`'s account. */
  issue(email: string): string {
    const account = Buffer.from(accountKey(email), 'utf8').toString('base64url');
    const issued = Math.floor(this.now() / 1000);
    const payload = `${VERSION}.${account}.${issued}.${randomBytes(16).toString('base64url')}`;
    const value = `${payload}.${macText(this.keys[0]!, payload)}`;
    return [
      `${DEVICE_COOKIE}=${value}`,
      `Path=${DEVICE_COOKIE_PATH}`,
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
      ...(this.secure ? ['Secure'] : []),
    ].join('; ');
  }

  /**
   * The device the request's cookie names when it is ours, unexpired and for `email`'s account;
   * otherwise none: a forged, altered, expired or other account's cookie counts as no cookie.
   */
  knownDevice(request: Request, email: string): KnownDevice | undefined {
    const value = readCookie(request, DEVICE_COOKIE);
    const parts = value?.split('.');
    if (!parts || parts.length !== 5) return undefined;
    const [version, account, issued, nonce, mac] = parts as [
      string,
      string,
      string,
      string,
      string,
    ];
    if (version !== VERSION || !ISSUED.test(issued) || !NONCE.test(nonce)) return undefined;
    if (!macMatches(this.keys, parts.slice(0, 4).join('.'), mac)) return undefined;
    const age = this.now() / 1000 - Number(issued);
    if (age < 0 || age > DEVICE_COOKIE_MAX_AGE_SECONDS) return undefined;
    const named = Buffer.from(account, 'base64url').toString('utf8');
    return named === accountKey(email) ? { id: nonce } : undefined;
  }
}
