import { Center } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { isUnauthorized } from '../../api/errors.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Loading } from '../../ui/loading.tsx';

/** Renders its children for a signed-in person; sends anyone else to sign in and back. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) {
    return (
      <Center mih="100vh">
        <Loading label="Loading" />
      </Center>
    );
  }
  if (me.isError) {
    if (isUnauthorized(me.error)) {
      const returnTo = `${location.pathname}${location.search}`;
      return <Navigate to={`/sign-in?returnTo=${encodeURIComponent(returnTo)}`} replace />;
    }
    return (
      <Center mih="100vh" p="md">
        <ErrorAlert error={me.error} />
      </Center>
    );
  }
  return children;
}
