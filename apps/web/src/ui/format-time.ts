const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO timestamp from the API in the browser's own time zone and locale. */
export function formatTime(iso: string | null | undefined, never = 'Never'): string {
  if (!iso) return never;
  return dateTime.format(new Date(iso));
}
