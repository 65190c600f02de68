import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ApiClient } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { formatTime } from '../../../ui/format-time.ts';
import { useDeleteNotification, useMarkAsRead } from './use-inbox.ts';

type Notification = Awaited<
  ReturnType<ApiClient['notification']['getNotifications']>
>['notifications'][number];

const importanceColor = { info: 'blue.9', warning: 'orange.4', critical: 'red.9' } as const;

/** An action's address: a path of this app opens inside it, anything else in a new tab. */
function ActionLink({ action }: { action: NonNullable<Notification['action']> }) {
  if (action.url.startsWith('/')) {
    return (
      <Anchor component={Link} to={action.url} size="sm">
        {action.label}
      </Anchor>
    );
  }
  return (
    <Anchor href={action.url} target="_blank" rel="noopener noreferrer" size="sm">
      {action.label}
    </Anchor>
  );
}

/**
 * One notification. The body is the sender's Markdown source and is shown as text: an inbox
 * message must never become markup of this page.
 */
export function NotificationItem({ notification }: { notification: Notification }) {
  const markAsRead = useMarkAsRead();
  const remove = useDeleteNotification();
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper
      withBorder
      p="md"
      component="article"
      aria-label={notification.title}
      data-testid="notification"
      bg={notification.read ? undefined : 'var(--mantine-color-default-hover)'}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            {!notification.read && (
              <Badge color="blue.9" variant="filled" size="sm">
                Unread
              </Badge>
            )}
            <Badge
              color={importanceColor[notification.importance]}
              variant="filled"
              autoContrast
              size="sm"
            >
              {notification.importance}
            </Badge>
            <Text fw={notification.read ? 500 : 700}>{notification.title}</Text>
          </Group>
          <Text size="sm" c="dimmed" component="time" dateTime={notification.createdAt}>
            {formatTime(notification.createdAt)}
          </Text>
        </Group>
        {notification.body && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {notification.body}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>{notification.action && <ActionLink action={notification.action} />}</div>
          <Group gap="xs">
            {!notification.read && (
              <Button
                size="xs"
                variant="default"
                loading={markAsRead.isPending}
                onClick={() => markAsRead.mutate({ ids: [notification.id] })}
                aria-label={`Mark read: ${notification.title}`}
              >
                Mark read
              </Button>
            )}
            <Button
              size="xs"
              variant="default"
              color="red"
              onClick={() => setConfirming(true)}
              aria-label={`Delete: ${notification.title}`}
            >
              Delete
            </Button>
          </Group>
        </Group>
        <ErrorAlert error={markAsRead.error ?? remove.error} />
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Delete this notification?"
        confirmLabel="Delete notification"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate({ id: notification.id }, { onSuccess: () => setConfirming(false) })
        }
      >
        “{notification.title}” leaves your inbox for good.
      </ConfirmDialog>
    </Paper>
  );
}
