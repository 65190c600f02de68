import { createBrowserRouter } from 'react-router';
import { applicationsRoutes } from '../features/applications/index.tsx';
import { auditRoutes } from '../features/audit/index.tsx';
import { catalogRoutes } from '../features/catalog/index.tsx';
import {
  AccountPage,
  AuthErrorPage,
  RequireSignIn,
  SignInPage,
  SignUpPage,
} from '../features/auth/index.ts';
import { dashboardRoutes } from '../features/dashboard/index.tsx';
import { HomePage, NotFoundPage } from '../features/home/index.ts';
import { notificationRoutes } from '../features/notifications/index.tsx';
import { rolesRoutes } from '../features/roles/index.tsx';
import { teamsRoutes } from '../features/teams/index.tsx';
import { usersRoutes } from '../features/users/index.tsx';
import { incidentsRoutes } from '../features/incidents/index.tsx';
import { maintenanceRoutes } from '../features/maintenance/index.tsx';
import { publicStatusRoutes } from '../features/public-status/index.tsx';
import { statusPagesRoutes } from '../features/status-pages/index.tsx';
import { operationsRoutes } from '../features/operations/index.tsx';
import { systemsRoutes } from '../features/systems/index.tsx';
import { AppLayout } from './shell/app-layout.tsx';
import { navEntries } from './shell/nav-entries.ts';

export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  { path: '/sign-up', element: <SignUpPage /> },
  { path: '/auth/error', element: <AuthErrorPage /> },
  ...publicStatusRoutes,
  {
    element: (
      <RequireSignIn>
        <AppLayout />
      </RequireSignIn>
    ),
    children: [
      ...dashboardRoutes,
      { path: 'overview', element: <HomePage entries={navEntries} /> },
      { path: 'account', element: <AccountPage /> },
      ...applicationsRoutes,
      ...notificationRoutes,
      ...usersRoutes,
      ...rolesRoutes,
      ...teamsRoutes,
      ...auditRoutes,
      ...systemsRoutes,
      ...catalogRoutes,
      ...incidentsRoutes,
      ...maintenanceRoutes,
      ...operationsRoutes,
      ...statusPagesRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
