import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { UsersPage } from './users-page.tsx';

export const usersNav: NavEntry = {
  label: 'Users',
  to: '/users',
  mayOpen: (me) => mayCall(me, contracts.auth.getUsers),
};

export const usersRoutes: RouteObject[] = [
  {
    path: 'users',
    element: (
      <RequireAccess allowed={usersNav.mayOpen}>
        <UsersPage />
      </RequireAccess>
    ),
  },
];
