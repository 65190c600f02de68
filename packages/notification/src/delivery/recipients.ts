import type { ApplicationProfile, UserProfile } from '@checkline/auth';
import type { RequestContext } from '@checkline/core';
import type { RecipientKind } from '../db/schema.ts';
import { fetchApplicationProfiles } from './application-profiles.ts';
import { fetchUserProfiles } from './user-profiles.ts';

/** A delivery's recipient as auth describes it now; `profile` undefined when auth knows none. */
export type Recipient =
  | { kind: 'user'; profile: UserProfile | undefined }
  | { kind: 'application'; profile: ApplicationProfile | undefined };

/** The recipients `ids` of one kind, by id (absent ones with an undefined profile). */
export async function fetchRecipients(
  context: RequestContext,
  kind: RecipientKind,
  ids: readonly string[],
): Promise<Map<string, Recipient>> {
  const recipients = new Map<string, Recipient>();
  if (kind === 'application') {
    const profiles = await fetchApplicationProfiles(context, ids);
    for (const id of ids) recipients.set(id, { kind, profile: profiles.get(id) });
  } else {
    const profiles = await fetchUserProfiles(context, ids);
    for (const id of ids) recipients.set(id, { kind, profile: profiles.get(id) });
  }
  return recipients;
}
