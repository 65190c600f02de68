import type { Principal, ResourceAccessLevel } from '@checkline/core/contract';
import type { ResourceAccess, ResourceDecision } from '@checkline/core';
import type { Database } from '@checkline/db';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { TEAM_RESOURCE } from './access.ts';
import type { ResourceEntry } from './resource-grants.ts';
import { loadResourceEntries } from './resource-grants.ts';
import { managesTeam } from './teams.ts';

const covers = (granted: ResourceAccessLevel, needed: ResourceAccessLevel) =>
  granted === 'manage' || needed === 'read';

function grantedToCaller(entry: ResourceEntry, principal: Principal, level: ResourceAccessLevel) {
  return entry.grants.some(
    (grant) => principal.teamIds.includes(grant.teamId) && covers(grant.access, level),
  );
}

const isTransaction = (db: Database): boolean => db instanceof PgTransaction;

interface Loaded {
  expiresAt: number;
  entries: Promise<Map<string, ResourceEntry>>;
}

/**
 * Team access to resources (docs/security.md). No grants: the global rule decides. Grants and not
 * team-only: the global rule or a grant of one of the caller's teams. Team-only: a grant only
 * (admins excepted). The grants of a resource type are read in one go and kept for a few seconds:
 * checking them costs no query on the hot path. Teams themselves (`auth.team`) may be changed by
 * their managers. Every read goes through the `db` of the call (its transaction inside one).
 */
export class TeamAccess implements ResourceAccess {
  readonly #loaded = new Map<string, Loaded>();

  constructor(private readonly ttlMs: number) {}

  async decide(
    db: Database,
    principal: Principal,
    resourceType: string,
    resourceId: string,
    level: ResourceAccessLevel,
  ): Promise<ResourceDecision> {
    if (principal.isAdmin) return 'allow';
    if (resourceType === TEAM_RESOURCE) {
      const manager =
        principal.teamIds.includes(resourceId) && (await managesTeam(db, principal, resourceId));
      return manager ? 'allow' : 'global';
    }
    const entry = (await this.#entries(db, resourceType)).get(resourceId);
    if (!entry) return 'global';
    if (grantedToCaller(entry, principal, level)) return 'allow';
    return entry.teamOnly ? 'deny' : 'global';
  }

  async visible(
    db: Database,
    principal: Principal,
    resourceType: string,
    ids: readonly string[],
    level: ResourceAccessLevel,
    holdsGlobalRule: boolean,
  ): Promise<ReadonlySet<string>> {
    if (principal.isAdmin) return new Set(ids);
    if (resourceType === TEAM_RESOURCE) {
      return new Set(holdsGlobalRule ? ids : ids.filter((id) => principal.teamIds.includes(id)));
    }
    const entries = await this.#entries(db, resourceType);
    return new Set(
      ids.filter((id) => {
        const entry = entries.get(id);
        if (!entry) return holdsGlobalRule;
        if (grantedToCaller(entry, principal, level)) return true;
        return !entry.teamOnly && holdsGlobalRule;
      }),
    );
  }

  async restricted(
    db: Database,
    principal: Principal,
    resourceType: string,
    level: ResourceAccessLevel,
  ): Promise<ReadonlySet<string>> {
    if (principal.isAdmin || resourceType === TEAM_RESOURCE) return new Set();
    const restricted = new Set<string>();
    for (const [id, entry] of await this.#entries(db, resourceType)) {
      if (entry.teamOnly && !grantedToCaller(entry, principal, level)) restricted.add(id);
    }
    return restricted;
  }

  /** Drops what is kept of one resource type (or all), so the next check reads it again. */
  invalidate(resourceType?: string): void {
    if (resourceType === undefined) this.#loaded.clear();
    else this.#loaded.delete(resourceType);
  }

  /**
   * Kept grants while fresh. Otherwise they are read through `db`; what a transaction reads is
   * not kept, since it may hold changes that roll back (its own grant changes invalidate at once).
   */
  #entries(db: Database, resourceType: string): Promise<Map<string, ResourceEntry>> {
    const now = Date.now();
    const current = this.#loaded.get(resourceType);
    if (current && current.expiresAt > now) return current.entries;
    if (isTransaction(db)) return loadResourceEntries(db, resourceType);
    const loaded: Loaded = {
      expiresAt: now + this.ttlMs,
      entries: loadResourceEntries(db, resourceType),
    };
    // A failed read must not be kept: the next check tries again (and this one fails closed).
    loaded.entries.catch(() => {
      if (this.#loaded.get(resourceType) === loaded) this.#loaded.delete(resourceType);
    });
    this.#loaded.set(resourceType, loaded);
    return loaded.entries;
  }
}
