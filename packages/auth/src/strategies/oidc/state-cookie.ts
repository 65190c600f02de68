import { timingSafeEqual } from 'node:crypto';
import { readCookie } from '../../cookies.ts';
import { sha256Hex } from '../../sha256.ts';
import { LOGIN_STATE_TTL_MS } from './login-states.ts';

/**
 * The `state` of a started sign-in, kept by the browser that started it. The callback completes
 * only when the state it brings is this one: a callback URL planted in another browser (login
 * CSRF) finds no cookie there.
 */
export interface StateCookie {
  name: string;
  /** The callback's path: the cookie goes nowhere else. */
  path: string;
  secure: boolean;
}

function serialize(cookie: StateCookie, value: string, maxAgeSeconds: number): string {
  return [
    `${cookie.name}=${value}`,
    `Path=${cookie.path}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
    ...(cookie.secure ? ['Secure'] : []),
  ].join('; ');
}

export const setStateCookie = (cookie: StateCookie, state: string) =>
  serialize(cookie, state, LOGIN_STATE_TTL_MS / 1000);

export const clearStateCookie = (cookie: StateCookie) => serialize(cookie, '', 0);

/** Whether the request carries the cookie for `state`; compared in constant time. */
export function browserStarted(request: Request, cookie: StateCookie, state: string): boolean {
  const held = readCookie(request, cookie.name);
  if (!held) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(held)), Buffer.from(sha256Hex(state)));
}
