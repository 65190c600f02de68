import { Center } from '@mantine/core';
import type { ReactNode } from 'react';
import { Loading } from './loading.tsx';

/**
 * What a list shows for its query: a labelled spinner while it is first loading, `empty` when
 * it has no rows, else the rows.
 */
export function QueryBody({
  pending,
  loadingLabel,
  minHeight = 120,
  isEmpty = false,
  empty = null,
  children,
}: {
  pending: boolean;
  loadingLabel: string;
  minHeight?: number;
  /** Left out where the list's section shows its own empty text. */
  isEmpty?: boolean;
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (pending) {
    return (
      <Center mih={minHeight}>
        <Loading label={loadingLabel} />
      </Center>
    );
  }
  return isEmpty ? empty : children;
}
