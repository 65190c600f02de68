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
