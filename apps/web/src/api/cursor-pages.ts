/**
 * The paging half of an `infiniteOptions` call for a keyset-paged list: the first page without a
 * cursor, then the next one for as long as the server answers a `nextCursor`. `input` is the rest
 * of the list's input (limit, filters).
 */
export function cursorPages<TInput extends object>(input: TInput) {
  return {
    input: (cursor: string | undefined) => ({ ...input, ...(cursor && { cursor }) }),
    initialPageParam: undefined,
    getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor ?? undefined,
  };
}
