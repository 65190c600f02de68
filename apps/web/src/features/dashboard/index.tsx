import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { DashboardPage } from './dashboard-page.tsx';

const dashboardNav: NavEntry = {
  label: 'Dashboard',
  to: '/',
  mayOpen: (me) =>
    mayCall(me, contracts.catalog.getSystems) &&
    mayCall(me, contracts.healthcheck.getBulkSystemHealthStatus),
};

export const dashboardRoutes: RouteObject[] = [
  {
    index: true,
    element: (
      <RequireAccess allowed={dashboardNav.mayOpen}>
        <DashboardPage />
      </RequireAccess>
    ),
  },
];
