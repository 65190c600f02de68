import type { Principal } from '@checkline/core/contract';
import type { Database } from '@checkline/db';
import { eq } from 'drizzle-orm';
import { applications, users } from './db/schema.ts';
import type { Me } from './schemas.ts';

/** The caller's principal, with the name (and, for users, the e-mail) it is known by. */
export async function describeCaller(db: Database, principal: Principal): Promise<Me> {
  let name: string | null = null;
  let email: string | null = null;
  if (principal.kind === 'user' && principal.id) {
    const [row] = await db
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, principal.id));
    name = row?.name ?? null;
    email = row?.email ?? null;
  } else if (principal.kind === 'application' && principal.id) {
    const [row] = await db
      .select({ name: applications.name })
      .from(applications)
      .where(eq(applications.id, principal.id));
    name = row?.name ?? null;
  }
  return {
    kind: principal.kind,
    id: principal.id,
    accessRules: [...principal.accessRules],
    teamIds: [...principal.teamIds],
    isAdmin: principal.isAdmin,
    name,
    email,
  };
}
