import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { ApplicationsPage } from './applications-page.tsx';

export const applicationsNav: NavEntry = {
  label: 'Applications',
  to: '/applications',
  mayOpen: (me) => mayCall(me, contracts.auth.getApplications),
};

export const applicationsRoutes: RouteObject[] = [
  {
    path: 'applications',
    element: (
      <RequireAccess allowed={applicationsNav.mayOpen}>
        <ApplicationsPage />
      </RequireAccess>
    ),
  },
];
