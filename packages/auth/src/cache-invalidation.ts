import type { Database, DatabaseListen } from '@checkline/db';
import { sql } from 'drizzle-orm';
import type { Authenticator } from './authenticate.ts';
import type { TeamAccess } from './team-access.ts';

/** The one PostgreSQL channel every process announces and hears auth cache invalidations on. */
const AUTH_CACHE_CHANNEL = 'checkline_auth_cache';

/**
 * What changed, and so what every process must stop trusting: an application's key, roles or
 * teams; a user's sessions, roles, teams or state; the grants of one resource type (or all); or
 * everything (a role's rules, a deleted team).
 */
export type CacheInvalidation =
  | { kind: 'application'; id: string }
  | { kind: 'user'; id: string }
  | { kind: 'grants'; resourceType: string }
  | { kind: 'everything' };

const EVERYTHING: CacheInvalidation = { kind: 'everything' };

export function encodeInvalidation(invalidation: CacheInvalidation): string {
  switch (invalidation.kind) {
    case 'application':
    case 'user':
      return `${invalidation.kind}:${invalidation.id}`;
    case 'grants':
      return `grants:${invalidation.resourceType}`;
    case 'everything':
      return 'everything';
  }
}

/** A payload as heard; anything not understood drops everything (failing closed). */
export function decodeInvalidation(payload: string): CacheInvalidation {
  const separator = payload.indexOf(':');
  const kind = separator < 0 ? payload : payload.slice(0, separator);
  const value = payload.slice(separator + 1);
  if (separator < 0 || value === '') return EVERYTHING;
  if (kind === 'application' || kind === 'user') return { kind, id: value };
  if (kind === 'grants') return { kind, resourceType: value };
  return EVERYTHING;
}

export interface InvalidatedCaches {
  authenticator: Authenticator;
  teamAccess: TeamAccess;
  /** Hears each invalidation applied, and where it came from (`GET /metrics`). */
  countInvalidation?(kind: CacheInvalidation['kind'], source: InvalidationSource): void;
}

/** Made by this process, announced by another (or this one) on the channel, or a lost listener. */
export type InvalidationSource = 'local' | 'announced' | 'connection-lost';

export function applyInvalidation(caches: InvalidatedCaches, invalidation: CacheInvalidation) {
  const { authenticator, teamAccess } = caches;
  switch (invalidation.kind) {
    case 'application':
      return authenticator.forgetApplication(invalidation.id);
    case 'user':
      return authenticator.forgetUser(invalidation.id);
    case 'grants':
      return teamAccess.invalidate(invalidation.resourceType);
    case 'everything':
      authenticator.forgetAll();
      return teamAccess.invalidate();
  }
}

/**
 * Tells every process listening on the database. Inside a transaction PostgreSQL delivers it at
 * commit (and never if it rolls back), so no process re-reads the old state after hearing it.
 */
export async function announceInvalidation(db: Database, invalidation: CacheInvalidation) {
  await db.execute(
    sql`select pg_notify(${AUTH_CACHE_CHANNEL}, ${encodeInvalidation(invalidation)})`,
  );
}

/**
 * Applies what other processes announce. When the listening connection is lost the process
 * cannot know what it missed, so it drops everything (and again once it hears anew).
 */
export function listenForInvalidations(listen: DatabaseListen, caches: InvalidatedCaches) {
  return listen(
    AUTH_CACHE_CHANNEL,
    (payload) => {
      const invalidation = decodeInvalidation(payload);
      caches.countInvalidation?.(invalidation.kind, 'announced');
      applyInvalidation(caches, invalidation);
    },
    () => {
      caches.countInvalidation?.(EVERYTHING.kind, 'connection-lost');
      applyInvalidation(caches, EVERYTHING);
    },
  );
}
