import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import type { NavEntry } from '../../ui/nav-entry.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { CatalogPage } from './catalog-page.tsx';

export const catalogNav: NavEntry = {
  label: 'Catalog',
  to: '/catalog',
  mayOpen: (me) => mayCall(me, contracts.catalog.createSystem),
};

export const catalogRoutes: RouteObject[] = [
  {
    path: 'catalog',
    element: (
      <RequireAccess allowed={catalogNav.mayOpen}>
        <CatalogPage />
      </RequireAccess>
    ),
  },
];
