import type { RouteObject } from 'react-router';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { mayOpenTeams } from './team-access.ts';
import { TeamsPage } from './teams-page.tsx';

export const teamsNav: NavEntry = { label: 'Teams', to: '/teams', mayOpen: mayOpenTeams };

export const teamsRoutes: RouteObject[] = [
  {
    path: 'teams',
    element: (
      <RequireAccess allowed={teamsNav.mayOpen}>
        <TeamsPage />
      </RequireAccess>
    ),
  },
];
