import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import { RequireAccess } from '../../ui/require-access.tsx';
import { Loading } from '../../ui/loading.tsx';

// The chart library is most of this screen's weight: it loads when a system page is opened.
const SystemPage = lazy(() =>
  import('./system-page.tsx').then((module) => ({ default: module.SystemPage })),
);

const mayOpenSystem = (me: Parameters<typeof mayCall>[0]) =>
  mayCall(me, contracts.catalog.getSystem) && mayCall(me, contracts.healthcheck.getHealthChecks);

export const systemsRoutes: RouteObject[] = [
  {
    path: 'systems/:id',
    element: (
      <RequireAccess allowed={mayOpenSystem}>
        <Suspense fallback={<Loading label="Loading system" />}>
          <SystemPage />
        </Suspense>
      </RequireAccess>
    ),
  },
];
