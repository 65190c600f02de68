import type { Database } from '@checkline/db';
import { eq } from 'drizzle-orm';
import { settings } from './db/schema.ts';

const KEY = 'allow_registration';

/** Whether sign-up strategies may create users. Off until an admin turns it on. */
export async function isRegistrationAllowed(db: Database): Promise<boolean> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  return row?.value === true;
}

export async function setRegistrationAllowed(db: Database, allow: boolean): Promise<void> {
  await db
    .insert(settings)
    .values({ key: KEY, value: allow })
    .onConflictDoUpdate({ target: settings.key, set: { value: allow, updatedAt: new Date() } });
}
