import type { TableProps, TableScrollContainerProps } from '@mantine/core';
import { Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/** A column heading: its text, or text only screen readers hear (a column of row actions). */
export type Column = string | { hidden: string };

/**
 * A table that scrolls sideways below `minWidth`, with one heading row from `columns` and the
 * rows as children. Other props go to the table; `scroll` to its scrolling container.
 */
export function DataTable({
  columns,
  minWidth,
  scroll,
  children,
  ...table
}: Omit<TableProps, 'children'> & {
  columns: readonly Column[];
  minWidth: number;
  scroll?: Omit<TableScrollContainerProps, 'minWidth' | 'children'>;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth} {...scroll}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <Table.Th key={column}>{column}</Table.Th>
              ) : (
                <Table.Th key={column.hidden}>
                  <VisuallyHidden>{column.hidden}</VisuallyHidden>
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
