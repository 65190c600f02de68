import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { IncidentPage } from './incident-page.tsx';
import { IncidentsPage } from './incidents-page.tsx';

export const incidentsNav: NavEntry = {
  label: 'Incidents',
  to: '/incidents',
  mayOpen: (me) => mayCall(me, contracts.incident.listIncidents),
};

export const incidentsRoutes: RouteObject[] = [
  {
    path: 'incidents',
    element: (
      <RequireAccess allowed={incidentsNav.mayOpen}>
        <IncidentsPage />
      </RequireAccess>
    ),
  },
  {
    path: 'incidents/:id',
    element: (
      <RequireAccess allowed={incidentsNav.mayOpen}>
        <IncidentPage />
      </RequireAccess>
    ),
  },
];
