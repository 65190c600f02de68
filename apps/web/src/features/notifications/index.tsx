import type { RouteObject } from 'react-router';
import { RequireAccess } from '../../ui/require-access.tsx';
import { DeliveriesPage } from './admin/deliveries-page.tsx';
import { StrategiesPage } from './admin/strategies-page.tsx';
import { InboxPage } from './inbox/inbox-page.tsx';
import { NotificationSettingsPage } from './settings/settings-page.tsx';
import { deliveriesNav, inboxNav, notificationSettingsNav, strategiesNav } from './nav.ts';

export { UnreadBadge } from './inbox/unread-badge.tsx';
export { deliveriesNav, inboxNav, notificationSettingsNav, strategiesNav };

/** Paths relative to the signed-in layout. */
const relative = (to: string) => to.slice(1);

export const notificationRoutes: RouteObject[] = [
  {
    path: relative(inboxNav.to),
    element: (
      <RequireAccess allowed={inboxNav.mayOpen}>
        <InboxPage />
      </RequireAccess>
    ),
  },
  {
    path: relative(notificationSettingsNav.to),
    element: (
      <RequireAccess allowed={notificationSettingsNav.mayOpen}>
        <NotificationSettingsPage />
      </RequireAccess>
    ),
  },
  {
    path: relative(strategiesNav.to),
    element: (
      <RequireAccess allowed={strategiesNav.mayOpen}>
        <StrategiesPage />
      </RequireAccess>
    ),
  },
  {
    path: relative(deliveriesNav.to),
    element: (
      <RequireAccess allowed={deliveriesNav.mayOpen}>
        <DeliveriesPage />
      </RequireAccess>
    ),
  },
];
