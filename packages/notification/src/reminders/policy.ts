import type { RequestContext } from '@checkline/core';
import { badRequest, notFound } from '@checkline/core';
import { fetchUserProfiles } from '../delivery/user-profiles.ts';
import type { NotificationState } from '../state.ts';
import { teamMembers } from '../subscriptions/team-subscribers.ts';

interface ReminderPolicy {
  remindEverySeconds?: number | undefined;
  escalateAfterSeconds?: number | undefined;
  escalateToUserId?: string | undefined;
  escalateToTeamId?: string | undefined;
}

/**
 * Applications are reached only at their webhook and acknowledge nothing: their subscriptions
 * take no reminder and no escalation (BAD_REQUEST naming the field).
 */
export function assertApplicationTakesNoReminders(policy: ReminderPolicy): void {
  for (const field of ['remindEverySeconds', 'escalateAfterSeconds'] as const) {
    if (policy[field] !== undefined) {
      throw badRequest('An application’s subscription takes no reminders or escalation', [
        { path: field, message: 'Not for an application: it is reached only at its webhook' },
      ]);
    }
  }
}

/**
 * A subscription's reminder and escalation must respect the server's smallest interval, and the
 * escalation contact must be a user or a team (NOT_FOUND otherwise; whether they may read the
 * system is decided when the escalation goes out).
 */
export async function assertReminderPolicy(
  state: NotificationState,
  context: RequestContext,
  policy: ReminderPolicy,
): Promise<void> {
  const minimum = state.reminderSettings.minIntervalSeconds;
  for (const field of ['remindEverySeconds', 'escalateAfterSeconds'] as const) {
    const value = policy[field];
    if (value !== undefined && value < minimum) {
      throw badRequest(`${field} must be at least ${minimum} on this server`, [
        { path: field, message: `Too small: expected at least ${minimum}` },
      ]);
    }
  }
  // Asked as the service, inside the caller's transaction (PGlite has one connection).
  const service: RequestContext = {
    ...state.serviceContext(),
    db: context.db,
    inTransaction: context.inTransaction ?? false,
  };
  if (policy.escalateToUserId) {
    const profiles = await fetchUserProfiles(service, [policy.escalateToUserId]);
    if (!profiles.has(policy.escalateToUserId)) throw notFound('User', policy.escalateToUserId);
  }
  if (policy.escalateToTeamId) {
    const members = await teamMembers(service, [policy.escalateToTeamId]);
    if (!members.has(policy.escalateToTeamId)) throw notFound('Team', policy.escalateToTeamId);
  }
}
