import type { RequestContext } from '@checkline/core';

/**
 * The calling user's id, for the procedures about the caller's own inbox, channels and test
 * notification. Their contract admits only users; the check keeps a wrong caller from ever
 * reaching a query with someone else's or no id.
 */
export function callerUserId(context: RequestContext): string {
  const { kind, id } = context.principal;
  if (kind !== 'user' || id === null) throw new Error('this procedure is for users only');
  return id;
}

/** A caller that owns subscriptions and channel settings: a person, or an application. */
export type CallerRecipient = { kind: 'user' | 'application'; id: string };

/**
 * The calling user or application, for the procedures both may call about their own
 * subscriptions and channels (their contracts admit no other kind).
 */
export function callerRecipient(context: RequestContext): CallerRecipient {
  const { kind, id } = context.principal;
  if ((kind !== 'user' && kind !== 'application') || id === null) {
    throw new Error('this procedure is for users and applications only');
  }
  return { kind, id };
}
