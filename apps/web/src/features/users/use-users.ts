import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { cursorPages } from '../../api/cursor-pages.ts';

export function useUsers() {
  return useInfiniteQuery(orpc.auth.getUsers.infiniteOptions(cursorPages({ limit: 100 })));
}

export function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: orpc.auth.getUsers.key() });
}
