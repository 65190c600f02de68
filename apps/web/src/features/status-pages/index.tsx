import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { EditStatusPage } from './edit-status-page.tsx';
import { StatusPagesPage } from './status-pages-page.tsx';

export const statusPagesNav: NavEntry = {
  label: 'Status pages',
  to: '/status-pages',
  mayOpen: (me) => mayCall(me, contracts.statuspage.getPages),
};

export const statusPagesRoutes: RouteObject[] = [
  {
    path: 'status-pages',
    element: (
      <RequireAccess allowed={statusPagesNav.mayOpen}>
        <StatusPagesPage />
      </RequireAccess>
    ),
  },
  {
    path: 'status-pages/:id',
    element: (
      <RequireAccess allowed={statusPagesNav.mayOpen}>
        <EditStatusPage />
      </RequireAccess>
    ),
  },
];
