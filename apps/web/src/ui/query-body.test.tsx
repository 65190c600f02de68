// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { QueryBody } from './query-body.tsx';

afterEach(cleanup);

const cases = [
  { state: 'pending', pending: true, isEmpty: true, shows: 'status' },
  { state: 'empty', pending: false, isEmpty: true, shows: 'Nothing here.' },
  { state: 'with rows', pending: false, isEmpty: false, shows: 'the rows' },
] as const;

describe('QueryBody', () => {
  it.each(cases)('shows one thing when $state', ({ pending, isEmpty, shows }) => {
    render(
      <MantineProvider>
        <QueryBody
          pending={pending}
          loadingLabel="Loading things"
          isEmpty={isEmpty}
          empty={<p>Nothing here.</p>}
        >
          <p>the rows</p>
        </QueryBody>
      </MantineProvider>,
    );
    const spinner = screen.queryByRole('status', { name: 'Loading things' });
    expect(spinner !== null).toBe(shows === 'status');
    expect(screen.queryByText('Nothing here.') !== null).toBe(shows === 'Nothing here.');
    expect(screen.queryByText('the rows') !== null).toBe(shows === 'the rows');
  });
});
