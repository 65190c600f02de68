import type { Database } from '@checkline/db';
import { and, eq, sql } from 'drizzle-orm';
import { identities, users } from './db/schema.ts';

export interface IdentityRecord {
  userId: string;
  /** The sign-in strategy or login provider. */
  provider: string;
  /** The provider's stable id of the account. */
  subject: string;
  email?: string | null | undefined;
}

/**
 * Records that `provider` knows the user as `subject`, keeping its latest e-mail. Throws when the
 * provider's account is already tied to another user: a sign-in must never move it silently.
 */
export async function recordIdentity(db: Database, identity: IdentityRecord): Promise<void> {
  const email = identity.email?.trim().toLowerCase() || null;
  const [row] = await db
    .insert(identities)
    .values({ ...identity, email })
    .onConflictDoUpdate({
      target: [identities.provider, identities.subject],
      set: { email },
      setWhere: sql`${identities.userId} = excluded.user_id`,
    })
    .returning({ id: identities.id });
  if (!row) {
    throw new Error(`The ${identity.provider} account is already tied to another user`);
  }
}

/** The user `provider` knows as `subject`, if that identity was recorded. */
export async function findUserByIdentity(db: Database, provider: string, subject: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(identities)
    .innerJoin(users, eq(users.id, identities.userId))
    .where(and(eq(identities.provider, provider), eq(identities.subject, subject)));
  return row;
}
