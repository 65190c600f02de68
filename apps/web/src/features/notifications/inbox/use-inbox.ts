import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { orpc } from '../../../api/client.ts';
import { cursorPages } from '../../../api/cursor-pages.ts';

const INBOX_PAGE_SIZE = 20;

/** The inbox, newest first, a page at a time. */
export function useInbox(unreadOnly: boolean) {
  return useInfiniteQuery(
    orpc.notification.getNotifications.infiniteOptions(
      cursorPages({ unreadOnly, limit: INBOX_PAGE_SIZE }),
    ),
  );
}

/** The unread count; the stream keeps it current, so it is never refetched on its own. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    ...orpc.notification.getUnreadCount.queryOptions({ input: {} }),
    enabled,
    staleTime: Infinity,
  });
}

/** Refreshes the list and the count after a change made here. */
function useRefreshInbox() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: orpc.notification.getNotifications.key() }),
      queryClient.invalidateQueries({ queryKey: orpc.notification.getUnreadCount.key() }),
    ]);
}

export function useMarkAsRead() {
  const refresh = useRefreshInbox();
  return useMutation(orpc.notification.markAsRead.mutationOptions({ onSuccess: refresh }));
}

export function useDeleteNotification() {
  const refresh = useRefreshInbox();
  return useMutation(orpc.notification.deleteNotification.mutationOptions({ onSuccess: refresh }));
}
