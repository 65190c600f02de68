import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { RolesPage } from './roles-page.tsx';

export const rolesNav: NavEntry = {
  label: 'Roles',
  to: '/roles',
  mayOpen: (me) =>
    mayCall(me, contracts.auth.getRoles) && mayCall(me, contracts.auth.getAccessRules),
};

export const rolesRoutes: RouteObject[] = [
  {
    path: 'roles',
    element: (
      <RequireAccess allowed={rolesNav.mayOpen}>
        <RolesPage />
      </RequireAccess>
    ),
  },
];
