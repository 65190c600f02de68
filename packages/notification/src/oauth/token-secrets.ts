import type { Keyring } from '@checkline/core';

export type TokenColumn = 'accessToken' | 'refreshToken';

/**
 * `notification.oauth_tokens|{userId}/{strategyId}|{column}`, the AAD prefix of a token column,
 * named like the config columns' so `secrets:rotate` re-encrypts it with the same walk.
 */
export const tokenAadPrefix = (userId: string, strategyId: string, column: TokenColumn) =>
  `notification.oauth_tokens|${userId}/${strategyId}|${column}`;

/** A column holding one sealed string is the value at the empty path of its prefix. */
const aadOf = (prefix: string) => `${prefix}|`;

export function sealToken(
  keyring: Keyring,
  token: string,
  at: { userId: string; strategyId: string; column: TokenColumn },
): string {
  return keyring.encrypt(
    JSON.stringify(token),
    aadOf(tokenAadPrefix(at.userId, at.strategyId, at.column)),
  );
}

/** Throws DecryptionError (naming no value) when the stored value cannot be opened. */
export function openToken(
  keyring: Keyring,
  stored: string,
  at: { userId: string; strategyId: string; column: TokenColumn },
): string {
  return JSON.parse(
    keyring.decrypt(stored, aadOf(tokenAadPrefix(at.userId, at.strategyId, at.column))),
  ) as string;
}

const verifierAad = (stateHash: string) => `notification.oauth_states|${stateHash}|codeVerifier|`;

export const sealVerifier = (keyring: Keyring, verifier: string, stateHash: string) =>
  keyring.encrypt(verifier, verifierAad(stateHash));

export const openVerifier = (keyring: Keyring, stored: string, stateHash: string) =>
  keyring.decrypt(stored, verifierAad(stateHash));
