import type { RequestContext } from '@checkline/core';
import { inArray } from 'drizzle-orm';
import type { deliveries } from '../db/schema.ts';
import { messages } from '../db/schema.ts';
import type { DeliveryLogEntry } from './log-schemas.ts';
import { toDelivery } from './service.ts';
import { fetchUserProfiles } from './user-profiles.ts';

const readable = (profile: { name: string; email: string }) =>
  profile.name.trim() === '' ? profile.email : `${profile.name} <${profile.email}>`;

/** The log entries of `rows`: one query for their messages, one call to auth for the users. */
export async function toLogEntries(
  context: RequestContext,
  rows: (typeof deliveries.$inferSelect)[],
): Promise<DeliveryLogEntry[]> {
  if (rows.length === 0) return [];
  const messageIds = [...new Set(rows.map((row) => row.messageId))];
  const carried = await context.db
    .select({ id: messages.id, title: messages.title, type: messages.type })
    .from(messages)
    .where(inArray(messages.id, messageIds));
  const byMessage = new Map(carried.map((message) => [message.id, message]));
  const profiles = await fetchUserProfiles(
    context,
    rows.map((row) => row.userId),
  );
  return rows.map((row) => {
    const message = byMessage.get(row.messageId)!;
    const profile = profiles.get(row.userId);
    return {
      ...toDelivery(row),
      title: message.title,
      type: message.type,
      recipient: profile ? readable(profile) : null,
    };
  });
}
