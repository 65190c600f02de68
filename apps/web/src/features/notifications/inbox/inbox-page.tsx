import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { Page } from '../../../ui/page.tsx';
import { NotificationItem } from './notification-item.tsx';
import { useInbox, useMarkAsRead, useUnreadCount } from './use-inbox.ts';
import { LoadMore } from '../../../ui/load-more.tsx';
import { QueryBody } from '../../../ui/query-body.tsx';

export function InboxPage() {
  const [filter, setFilter] = useState<'all' | 'unread'>('all');
  const inbox = useInbox(filter === 'unread');
  const unread = useUnreadCount(true);
  const markAll = useMarkAsRead();
  const rows = inbox.data?.pages.flatMap((page) => page.notifications) ?? [];
  const unreadCount = unread.data?.count ?? 0;

  return (
    <Page
      title="Inbox"
      actions={
        <Button
          variant="default"
          disabled={unreadCount === 0}
          loading={markAll.isPending}
          onClick={() => markAll.mutate({ all: true })}
        >
          Mark all as read
        </Button>
      }
    >
      <SegmentedControl
        w="fit-content"
        value={filter}
        onChange={(value) => setFilter(value as 'all' | 'unread')}
        aria-label="Show"
        data={[
          { value: 'all', label: 'All' },
          { value: 'unread', label: `Unread (${unreadCount})` },
        ]}
      />
      <ErrorAlert error={inbox.error ?? markAll.error} />
      <QueryBody
        pending={inbox.isPending}
        loadingLabel="Loading notifications"
        isEmpty={rows.length === 0}
        empty={<Text>{filter === 'unread' ? 'Nothing unread.' : 'No notifications yet.'}</Text>}
      >
        <Stack gap="sm" data-testid="inbox-list">
          {rows.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} />
          ))}
        </Stack>
      </QueryBody>
      <LoadMore query={inbox} />
    </Page>
  );
}
