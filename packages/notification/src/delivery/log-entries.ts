import type { RequestContext } from '@checkline/core';
import { inArray } from 'drizzle-orm';
import type { deliveries } from '../db/schema.ts';
import { messages } from '../db/schema.ts';
import type { DeliveryLogEntry } from './log-schemas.ts';
import { toDelivery } from './service.ts';
import { fetchApplicationProfiles } from './application-profiles.ts';
import { fetchUserProfiles } from './user-profiles.ts';

const readable = (profile: { name: string; email: string }) =>
  profile.name.trim() === '' ? profile.email : `${profile.name} <${profile.email}>`;

/** How the log names each recipient of `rows` that still exists, by kind and id. */
async function recipientNames(
  context: RequestContext,
  rows: (typeof deliveries.$inferSelect)[],
): Promise<{ user: Map<string, string>; application: Map<string, string> }> {
  const idsOf = (kind: 'user' | 'application') =>
    rows.filter((row) => row.recipientKind === kind).map((row) => row.userId);
  const applicationIds = idsOf('application');
  const users = await fetchUserProfiles(context, idsOf('user'));
  const applications =
    applicationIds.length === 0
      ? new Map()
      : await fetchApplicationProfiles(context, applicationIds);
  return {
    user: new Map([...users].map(([id, profile]) => [id, readable(profile)])),
    application: new Map(
      [...applications].map(([id, profile]) => [id, `${profile.name} (application)`]),
    ),
  };
}

/** The log entries of `rows`: one query for their messages, a call to auth per recipient kind. */
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
  const names = await recipientNames(context, rows);
  return rows.map((row) => {
    const message = byMessage.get(row.messageId)!;
    return {
      ...toDelivery(row),
      title: message.title,
      type: message.type,
      recipient: names[row.recipientKind].get(row.userId) ?? null,
    };
  });
}
