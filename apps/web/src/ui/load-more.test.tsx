// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadMore } from './load-more.tsx';

afterEach(cleanup);

const paged = (hasNextPage: boolean, fetched: string[]) => ({
  hasNextPage,
  isFetchingNextPage: false,
  fetchNextPage: () => {
    fetched.push('next');
    return Promise.resolve();
  },
});

describe('LoadMore', () => {
  it('asks for the next page when there is one', () => {
    const fetched: string[] = [];
    render(
      <MantineProvider>
        <LoadMore query={paged(true, fetched)} />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(fetched).toEqual(['next']);
  });

  it('is absent after the last page', () => {
    render(
      <MantineProvider>
        <LoadMore query={paged(false, [])} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
