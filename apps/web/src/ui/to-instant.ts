import dayjs from 'dayjs';

/** A date-time picker's local value as the API's UTC instant; empty is "never". */
export function toInstant(value: string | null): string | null {
  if (!value) return null;
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.toDate().toISOString() : null;
}
