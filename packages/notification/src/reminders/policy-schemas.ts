import { z } from 'zod';

/** A week: the longest reminder interval or escalation delay. */
const MAX_SECONDS = 7 * 24 * 60 * 60;

const seconds = z.number().int().min(1).max(MAX_SECONDS);

/**
 * A subscription's reminder and escalation, as `createSubscription` takes them. The server's
 * `REMINDER_MIN_INTERVAL_SECONDS` (default 60) is the smallest interval it accepts.
 */
export const reminderPolicyInput = {
  remindEverySeconds: seconds
    .optional()
    .describe(
      'Repeat an alert this often while the system stays unhealthy or the incident stays open, until someone acknowledges it.',
    ),
  escalateAfterSeconds: seconds
    .optional()
    .describe(
      'Tell `escalateToUserId` when an alert is still unacknowledged this long after it opened.',
    ),
  escalateToUserId: z
    .uuid()
    .optional()
    .describe(
      'The second person to alert (must exist, and must be able to read the system when the escalation goes out).',
    ),
  escalateToTeamId: z
    .uuid()
    .optional()
    .describe(
      'Instead of a person, the team to alert: every current member who can read the system when the escalation goes out.',
    ),
};

export const reminderPolicyOutput = {
  remindEverySeconds: z.number().int().nullable(),
  escalateAfterSeconds: z.number().int().nullable(),
  escalateToUserId: z.uuid().nullable(),
  escalateToTeamId: z.uuid().nullable(),
};

interface EscalationFields {
  escalateAfterSeconds?: number | undefined;
  escalateToUserId?: string | undefined;
  escalateToTeamId?: string | undefined;
}

/** An escalation needs its delay and exactly one target, a person or a team. */
export const escalationComplete = (input: EscalationFields) => {
  const targets = [input.escalateToUserId, input.escalateToTeamId].filter(
    (id) => id !== undefined,
  ).length;
  return input.escalateAfterSeconds === undefined ? targets === 0 : targets === 1;
};

export const escalationIssue = {
  message: 'Give escalateAfterSeconds together with one of escalateToUserId and escalateToTeamId',
  path: ['escalateToUserId'],
};
