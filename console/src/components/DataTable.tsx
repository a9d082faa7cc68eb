// Every table of the console: its columns declared as data, its rows, and what shows when there is none.
import { Table, Text, type TableProps, type TableScrollContainerProps } from '@mantine/core';
import { Fragment, type CSSProperties, type Key, type ReactNode } from 'react';

export interface Column<T> {
  /** Left out on every column, the table has no header row (labels beside their values). */
  header?: ReactNode;
  cell: (row: T) => ReactNode;
  /** Amounts and counts line up on the right, their header with them. */
  align?: 'right';
  w?: number | string;
  miw?: number;
  /** The cell names its row (`<th scope="row">`): a label before its value, a day before its numbers. */
  rowHeader?: { fw: number; c?: 'dimmed' };
  /** The cells' own style (a value kept on one line, a long address broken anywhere). */
  style?: CSSProperties;
  /** The cells' test id, for a figure a browser test reads. */
  testId?: string;
}

export interface DataTableProps<T> extends Omit<TableProps, 'children' | 'data'> {
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => Key;
  /** Shown instead of the table when there is no row; nothing when left out (a count above says it). */
  empty?: string;
  /** Inside a section (a contact's tab, a request's attempts): the smaller text of its surroundings. */
  compact?: boolean;
  /** Narrower than its `minWidth`, the table scrolls sideways instead of squeezing its columns. */
  scroll?: Omit<TableScrollContainerProps, 'children'>;
  /** A `<caption>` element: what a table shown instead of a chart is of. */
  caption?: ReactNode;
  rowTestId?: string;
  /** More attributes of a row: the record's id, for a test that follows that row. */
  rowData?: (row: T) => Record<`data-${string}`, string>;
  /** A click anywhere on the row; its link stays the way in for the keyboard and screen readers. */
  onRowClick?: (row: T) => void;
  /** What an opened row shows below it, across the table (a request's attempts), with the id its button controls. */
  detail?: (row: T) => { id: string; content: ReactNode } | undefined;
}

/** The dimmed line a list shows when it has nothing. */
export const NoRows = ({ text, compact }: { text: string; compact?: boolean }) => <Text c="dimmed" size={compact ? 'sm' : undefined}>{text}</Text>;

export function DataTable<T>({ columns, rows, rowKey, empty, compact, scroll, caption, rowTestId, rowData, onRowClick, detail, ...table }: DataTableProps<T>) {
  if (rows.length === 0) return empty === undefined ? null : <NoRows text={empty} compact={compact} />;
  // Header and cells alike: a column has one alignment and one width.
  const shape = (c: Column<T>) => ({ ta: c.align, w: c.w, miw: c.miw });
  const body = (
    <Table {...table}>
      {caption}
      {columns.some((c) => c.header !== undefined) && (
        <Table.Thead>
          <Table.Tr>
            {columns.map((c, i) => <Table.Th key={i} scope="col" {...shape(c)}>{c.header}</Table.Th>)}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>
        {rows.map((row, index) => {
          const opened = detail?.(row);
          return (
            <Fragment key={rowKey(row, index)}>
              <Table.Tr data-testid={rowTestId} {...rowData?.(row)} {...(onRowClick && { onClick: () => onRowClick(row), style: { cursor: 'pointer' } })}>
                {columns.map((c, i) => {
                  const cell = { ...shape(c), style: c.style, 'data-testid': c.testId, children: c.cell(row) };
                  return c.rowHeader ? <Table.Th key={i} scope="row" {...c.rowHeader} {...cell} /> : <Table.Td key={i} {...cell} />;
                })}
              </Table.Tr>
              {opened && (
                <Table.Tr id={opened.id}>
                  <Table.Td colSpan={columns.length}>{opened.content}</Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
      </Table.Tbody>
    </Table>
  );
  return scroll ? <Table.ScrollContainer {...scroll}>{body}</Table.ScrollContainer> : body;
}
