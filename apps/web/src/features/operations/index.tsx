import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { SchedulerPage } from './scheduler-page.tsx';

export const operationsNav: NavEntry = {
  label: 'Scheduler',
  to: '/operations/scheduler',
  mayOpen: (me) => mayCall(me, contracts.healthcheck.getSchedulerStatus),
};

export const operationsRoutes: RouteObject[] = [
  {
    path: 'operations/scheduler',
    element: (
      <RequireAccess allowed={operationsNav.mayOpen}>
        <SchedulerPage />
      </RequireAccess>
    ),
  },
];
