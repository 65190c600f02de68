// @vitest-environment happy-dom
import { MantineProvider, Table } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable } from './data-table.tsx';

afterEach(cleanup);

describe('DataTable', () => {
  it('heads its columns, a hidden one heard but not seen, and holds the rows', () => {
    render(
      <MantineProvider>
        <DataTable minWidth={400} aria-label="People" columns={['Name', { hidden: 'Actions' }]}>
          <Table.Tr>
            <Table.Td>Ada</Table.Td>
            <Table.Td>⋯</Table.Td>
          </Table.Tr>
        </DataTable>
      </MantineProvider>,
    );
    const table = screen.getByRole('table', { name: 'People' });
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['Name', 'Actions']);
    expect(screen.getByText('Actions').closest('th')).toBeTruthy();
    expect(screen.getByText('Actions').tagName).not.toBe('TH');
    expect(table.querySelector('tbody')?.textContent).toBe('Ada⋯');
  });

  it('names each visible column for the stacked rows of a narrow screen, quotes escaped', () => {
    render(
      <MantineProvider>
        <DataTable minWidth={400} columns={['Name', 'The "best" \\ one', { hidden: 'Actions' }]}>
          <Table.Tr>
            <Table.Td>Ada</Table.Td>
          </Table.Tr>
        </DataTable>
      </MantineProvider>,
    );
    const table = screen.getByRole('table');
    expect(table.style.getPropertyValue('--data-table-label-1')).toBe('"Name"');
    expect(table.style.getPropertyValue('--data-table-label-2')).toBe('"The \\"best\\" \\\\ one"');
    expect(table.style.getPropertyValue('--data-table-label-3')).toBe('');
  });
});
