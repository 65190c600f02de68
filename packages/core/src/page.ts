import { z } from 'zod';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1_000;

/**
 * The paging fields of every list procedure's input (docs/api.md, "Lists and paging"), spread into its input object:
 * `z.object({ ...filters, ...pageInput })`.
 */
export const pageInput = {
  /** Rows per page, 1 to 1000. Default 100. */
  limit: z
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .describe(`Rows per page, 1 to ${MAX_PAGE_LIMIT}. Default ${DEFAULT_PAGE_LIMIT}.`),
  /** The previous page's `nextCursor`; absent or null for the first page. */
  cursor: z
    .string()
    .min(1)
    .max(2_048)
    .nullish()
    .describe(
      "The previous page's `nextCursor`; leave it out (or null) for the first page, so a loop can pass `nextCursor` back as it is.",
    ),
};

export const PageInputSchema = z.object(pageInput);
export type PageInput = z.infer<typeof PageInputSchema>;

/** The paging field of every list procedure's output, beside the list itself. */
export const NextCursorSchema = z
  .string()
  .nullable()
  .describe('Pass as `cursor` to read the next page; null when this page is the last.');

/** A list procedure's output: `{[field]: T[], nextCursor}`, e.g. `pageOf('systems', SystemSchema)`. */
export function pageOf<const K extends string, T extends z.ZodType>(field: K, item: T) {
  const shape = { [field]: z.array(item), nextCursor: NextCursorSchema };
  return z.object(shape as { [P in K]: z.ZodArray<T> } & { nextCursor: typeof NextCursorSchema });
}
