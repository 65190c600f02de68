export type WindowPhase = 'active' | 'upcoming' | 'past';

/** Where a window stands at `now`: under way, still to come, or over. */
export function windowPhase(window: { startAt: string; endAt: string }, now: Date): WindowPhase {
  if (Date.parse(window.endAt) <= now.getTime()) return 'past';
  if (Date.parse(window.startAt) > now.getTime()) return 'upcoming';
  return 'active';
}

/** A picked local date-time ("YYYY-MM-DD HH:mm:ss", the browser's zone) as an ISO instant. */
export function localToInstant(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
