import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, orpc } from '../../../api/client.ts';
import { retryDelay } from './backoff.ts';

const unreadKey = () => orpc.notification.getUnreadCount.queryKey({ input: {} });

/**
 * Keeps the unread count and the inbox list current from the server's event stream while
 * `enabled`. Mounted once, in the shell, so a tab holds one stream (the server caps streams per
 * person). A stream that fails or ends is opened again after a growing wait; the wait starts
 * over once a stream delivers an event.
 */
export function useInboxStream(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;

    const run = async () => {
      try {
        const events = await api.notification.streamNotifications({}, { signal: stop.signal });
        for await (const event of events) {
          attempt = 0;
          if (event.kind === 'unread') {
            queryClient.setQueryData(unreadKey(), { count: event.count });
          } else {
            void queryClient.invalidateQueries({
              queryKey: orpc.notification.getNotifications.key(),
            });
          }
        }
      } catch {
        // Dropped or refused: tried again below.
      }
      if (stop.signal.aborted) return;
      timer = setTimeout(() => void run(), retryDelay(attempt));
      attempt += 1;
    };
    void run();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [enabled, queryClient]);
}
