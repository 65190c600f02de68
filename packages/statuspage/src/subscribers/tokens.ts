import { createHash, randomBytes } from 'node:crypto';
import { macMatches, macText, type Keyring } from '@checkline/core';

const UNSUBSCRIBE_PURPOSE = 'statuspage unsubscribe link v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the database keeps of a confirmation token: its SHA-256, never the token. */
export const hashOfToken = (token: string) =>
  createHash('sha256').update(token, 'utf8').digest('base64url');

/** A fresh confirmation token (256 random bits) and the hash to store. */
export function newConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOfToken(token) };
}

/** Whether `token` has the shape of one of ours, before any database work. */
export const isConfirmTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * `{subscriberId}.{HMAC}` under a key derived from the keyring: nothing is stored for it, and it
 * works for as long as the subscription exists (a new subscription of the same address has a
 * new id, so an old link cannot end it).
 */
export function signUnsubscribeToken(keyring: Keyring, subscriberId: string): string {
  const [key] = keyring.derivedKeys(UNSUBSCRIBE_PURPOSE);
  return `${subscriberId}.${macText(key!, subscriberId)}`;
}

/** The subscriber a token we signed names; undefined for anything else. MACs compare in constant time. */
export function verifyUnsubscribeToken(keyring: Keyring, token: string): string | undefined {
  const dot = token.indexOf('.');
  const subscriberId = token.slice(0, dot);
  const mac = token.slice(dot + 1);
  if (dot < 0 || !UUID.test(subscriberId)) return undefined;
  const signed = macMatches(keyring.derivedKeys(UNSUBSCRIBE_PURPOSE), subscriberId, mac);
  return signed ? subscriberId : undefined;
}
