import { Button } from '@mantine/core';

/** The paging state of an infinite query that LoadMore reads. */
interface Paged {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** Asks a cursor-paged list for its next page; absent once the last page is in. */
export function LoadMore({ query }: { query: Paged }) {
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="default"
      w="fit-content"
      loading={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      Load more
    </Button>
  );
}
