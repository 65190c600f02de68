import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The qualified id of the built-in heartbeat check type. */
export const HEARTBEAT_TYPE = 'healthcheck.heartbeat';

const TOKEN_PATTERN =
  /^hb_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** `hb_{healthCheckId}_{43 base64url characters}`: 256 random bits, and the check it beats for. */
export function generateHeartbeatToken(healthCheckId: string): string {
  return `hb_${healthCheckId}_${randomBytes(32).toString('base64url')}`;
}

/** The check id of a well-formed token; undefined for anything else. Never throws. */
export function heartbeatCheckIdOf(token: string): string | undefined {
  if (token.length > 100) return undefined;
  return TOKEN_PATTERN.exec(token)?.[1];
}

/** SHA-256 of the whole token, hex: the only form in which a token is stored. */
export function hashHeartbeatToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `token` hashes to `storedHash`, compared in constant time. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const given = Buffer.from(hashHeartbeatToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && given.length > 0 && timingSafeEqual(given, stored);
}
