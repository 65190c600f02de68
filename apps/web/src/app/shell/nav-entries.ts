import { applicationsNav } from '../../features/applications/index.tsx';
import {
  deliveriesNav,
  inboxNav,
  notificationSettingsNav,
  strategiesNav,
} from '../../features/notifications/index.tsx';
import { auditNav } from '../../features/audit/index.tsx';
import { catalogNav } from '../../features/catalog/index.tsx';
import { rolesNav } from '../../features/roles/index.tsx';
import { teamsNav } from '../../features/teams/index.tsx';
import { usersNav } from '../../features/users/index.tsx';
import { incidentsNav } from '../../features/incidents/index.tsx';
import { maintenanceNav } from '../../features/maintenance/index.tsx';
import { statusPagesNav } from '../../features/status-pages/index.tsx';
import { operationsNav } from '../../features/operations/index.tsx';
import type { NavEntry } from '../../ui/nav-entry.ts';

/** The screens in the navigation, in order; each feature says who may open it. */
export const navEntries: readonly NavEntry[] = [
  incidentsNav,
  maintenanceNav,
  operationsNav,
  statusPagesNav,
  catalogNav,
  applicationsNav,
  inboxNav,
  notificationSettingsNav,
  strategiesNav,
  deliveriesNav,
  usersNav,
  rolesNav,
  teamsNav,
  auditNav,
  { label: 'Overview', to: '/overview', mayOpen: () => true },
];
