// @vitest-environment happy-dom
import { MantineProvider, Menu } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RowMenu } from './row-menu.tsx';

afterEach(cleanup);

describe('RowMenu', () => {
  it('is a button named by its label that opens the row’s actions', async () => {
    const chosen: string[] = [];
    render(
      <MantineProvider>
        <RowMenu label="Actions for Ada">
          <Menu.Item onClick={() => chosen.push('edit')}>Edit</Menu.Item>
        </RowMenu>
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Ada' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    expect(chosen).toEqual(['edit']);
  });
});
