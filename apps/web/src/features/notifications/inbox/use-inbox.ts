import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client.ts';
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

type InboxPages = InfiniteData<Awaited<ReturnType<ApiClient['notification']['getNotifications']>>>;

/**
 * Shows the notifications marked (`ids`, or all) as read in every inbox list held, at once: the
 * unread count arrives through the stream, and a list lagging behind it would contradict it.
 */
function showAsRead(queryClient: QueryClient, marked: { ids: string[] } | { all: true }) {
  const isMarked = 'all' in marked ? () => true : (id: string) => marked.ids.includes(id);
  queryClient.setQueriesData<InboxPages>(
    { queryKey: orpc.notification.getNotifications.key() },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          notifications: page.notifications.map((notification) =>
            isMarked(notification.id) ? { ...notification, read: true } : notification,
          ),
        })),
      },
  );
}

/** Marks notifications read; the lists show it before the server answers (a failure refetches). */
export function useMarkAsRead() {
  const queryClient = useQueryClient();
  const refresh = useRefreshInbox();
  return useMutation(
    orpc.notification.markAsRead.mutationOptions({
      onMutate: (marked) => showAsRead(queryClient, marked),
      onSettled: refresh,
    }),
  );
}

export function useDeleteNotification() {
  const refresh = useRefreshInbox();
  return useMutation(orpc.notification.deleteNotification.mutationOptions({ onSuccess: refresh }));
}
