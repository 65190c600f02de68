import { useQuery } from '@tanstack/react-query';
import { orpc } from './client.ts';
import { isUnauthorized } from './errors.ts';

const meQuery = orpc.auth.getMe.queryOptions({
  input: {},
  // Not being signed in is an answer, not a failure to retry.
  retry: (count, error) => !isUnauthorized(error) && count < 2,
  staleTime: 60_000,
});

/** The signed-in person (or `undefined` while loading / when signed out). */
export function useMe() {
  return useQuery(meQuery);
}
