import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { cursorPages } from '../../api/cursor-pages.ts';

export function useApplications() {
  return useInfiniteQuery(orpc.auth.getApplications.infiniteOptions(cursorPages({ limit: 100 })));
}

/** Refetches the table after a change. */
export function useRefreshApplications() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: orpc.auth.getApplications.key() });
}
