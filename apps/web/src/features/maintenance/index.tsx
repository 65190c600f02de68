import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { MaintenancePage } from './maintenance-page.tsx';
import { WindowPage } from './window-page.tsx';

export const maintenanceNav: NavEntry = {
  label: 'Maintenance',
  to: '/maintenance',
  mayOpen: (me) => mayCall(me, contracts.maintenance.getWindows),
};

export const maintenanceRoutes: RouteObject[] = [
  {
    path: 'maintenance',
    element: (
      <RequireAccess allowed={maintenanceNav.mayOpen}>
        <MaintenancePage />
      </RequireAccess>
    ),
  },
  {
    path: 'maintenance/:id',
    element: (
      <RequireAccess allowed={maintenanceNav.mayOpen}>
        <WindowPage />
      </RequireAccess>
    ),
  },
];
