import { ActionIcon, Indicator } from '@mantine/core';
import { Link } from 'react-router';
import { useMe } from '../../../api/me.ts';
import { inboxNav } from '../nav.ts';
import { useInboxStream } from './use-inbox-stream.ts';
import { useUnreadCount } from './use-inbox.ts';

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <path
        d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The header's link to the inbox with the unread count, live from this tab's one stream. */
export function UnreadBadge() {
  const me = useMe();
  const hasInbox = me.data ? inboxNav.mayOpen(me.data) : false;
  useInboxStream(hasInbox);
  const unread = useUnreadCount(hasInbox);
  if (!hasInbox) return null;
  const count = unread.data?.count ?? 0;
  const label =
    count === 1 ? 'Inbox, 1 unread notification' : `Inbox, ${count} unread notifications`;
  return (
    <Indicator
      label={count > 99 ? '99+' : count}
      disabled={count === 0}
      size={18}
      color="red.9"
      offset={4}
      data-testid="unread-badge"
    >
      <ActionIcon component={Link} to={inboxNav.to} variant="default" size="lg" aria-label={label}>
        <BellIcon />
      </ActionIcon>
    </Indicator>
  );
}
