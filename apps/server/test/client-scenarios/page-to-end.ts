/** One page of a list as a scenario reads it: its items and the cursor of the next page. */
export interface ListPage<Item> {
  items: Item[];
  nextCursor: string | null;
}

/**
 * Reads a list from its first page (cursor `null`) until `nextCursor` is null, and at most
 * `maxPages` pages, so a list that never ends fails the scenario's checks instead of looping.
 */
export async function pageToEnd<Item>(
  readPage: (cursor: string | null) => Promise<ListPage<Item>>,
  maxPages = 10,
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const page = await readPage(cursor);
    pages += 1;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null && pages < maxPages);
  return { items, pages };
}
