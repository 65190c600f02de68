import { z } from 'zod';

const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * An ISO-8601 instant for inputs, between the years 1000 and 9999 once its offset is applied
 * (docs/api.md, "Input rules"): earlier years do not survive the round trip through the database drivers, later
 * ones no longer print as ISO-8601. `offset`: accept `+hh:mm` offsets besides `Z` (default true).
 */
export function timestampInput(options: { offset?: boolean } = {}) {
  return z.iso.datetime({ offset: options.offset ?? true }).refine(
    (value) => {
      const instant = Date.parse(value);
      // Not a date at all is the format check's issue, reported once.
      return Number.isNaN(instant) || (instant >= EARLIEST && instant <= LATEST);
    },
    { message: 'A timestamp lies between the years 1000 and 9999' },
  );
}
