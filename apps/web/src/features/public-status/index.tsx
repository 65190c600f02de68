import type { RouteObject } from 'react-router';
import { PublicStatusPage } from './public-status-page.tsx';

/** The public page: outside the signed-in app, so no one is sent to sign in. */
export const publicStatusRoutes: RouteObject[] = [
  { path: '/status/:slug', element: <PublicStatusPage /> },
];
