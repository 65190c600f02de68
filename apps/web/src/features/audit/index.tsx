import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { AuditPage } from './audit-page.tsx';

export const auditNav: NavEntry = {
  label: 'Audit log',
  to: '/audit',
  mayOpen: (me) => mayCall(me, contracts.auth.getAuditLog),
};

export const auditRoutes: RouteObject[] = [
  {
    path: 'audit',
    element: (
      <RequireAccess allowed={auditNav.mayOpen}>
        <AuditPage />
      </RequireAccess>
    ),
  },
];
