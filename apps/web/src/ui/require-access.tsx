import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Me } from '../api/access.ts';
import { useMe } from '../api/me.ts';

/** A screen for those `allowed` lets in; others learn they may not open it (no failing calls). */
export function RequireAccess({
  allowed,
  children,
}: {
  allowed: (me: Me) => boolean;
  children: ReactNode;
}) {
  const me = useMe();
  if (!me.data) return null;
  if (!allowed(me.data)) {
    return (
      <Alert color="gray" title="Not available" role="alert">
        Your account may not open this page.
      </Alert>
    );
  }
  return children;
}
