import type { TableProps, TableScrollContainerProps } from '@mantine/core';
import { Table, VisuallyHidden } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import classes from './data-table.module.css';

/** A column heading: its text, or text only screen readers hear (a column of row actions). */
export type Column = string | { hidden: string };

/** A CSS string holding `text` (for `content`), its quotes and backslashes escaped. */
const cssString = (text: string) => `"${text.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;

/** The names the narrow layout shows above each cell: one variable per visible heading. */
function columnLabels(columns: readonly Column[]): CSSProperties {
  return Object.fromEntries(
    columns.flatMap((column, index) =>
      typeof column === 'string' ? [[`--data-table-label-${index + 1}`, cssString(column)]] : [],
    ),
  );
}

/**
 * A table with one heading row from `columns` (up to eight) and the rows as children. At 36em
 * and wider it scrolls sideways below `minWidth`; narrower, each row is stacked, every cell under
 * its column's name (data-table.module.css). Other props go to the table; `scroll` to its
 * scrolling container.
 */
export function DataTable({
  columns,
  minWidth,
  scroll,
  children,
  className,
  style,
  ...table
}: Omit<TableProps, 'children'> & {
  columns: readonly Column[];
  minWidth: number;
  scroll?: Omit<TableScrollContainerProps, 'minWidth' | 'children'>;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      classNames={{ scrollContainer: classes.scroll, scrollContainerInner: classes.inner }}
      {...scroll}
    >
      <Table
        className={[classes.table, className].filter(Boolean).join(' ')}
        style={[columnLabels(columns), style]}
        {...table}
      >
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
