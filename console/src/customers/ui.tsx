// Small pieces the contact page's sections share: label/value tables, the dimmed line of nothing.
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DataTable } from '../components/DataTable';

/** A two-column table of labels and values (a screen reader reads each label with its value). */
export function Facts({ rows, label }: { rows: [string, ReactNode][]; label: string }) {
  return (
    <DataTable
      rows={rows}
      aria-label={label} withRowBorders={false} verticalSpacing={4} layout="fixed" maw={720} rowKey={([name]) => name}
      columns={[{ rowHeader: { fw: 500, c: 'dimmed' }, w: '38%', cell: ([name]) => name }, { cell: ([, value]) => value ?? '—' }]}
    />
  );
}

export const Empty = ({ children }: { children: ReactNode }) => <Text c="dimmed" size="sm">{children}</Text>;
