// Small pieces the contact page's sections share: loading and error states, paging, label/value tables.
import { Alert, Loader, Pagination, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Loaded } from '../api/useLoad';

/** The loader while nothing came yet, the API's message when it refused; else the content. */
export function Loading<T>({ loaded, what, children }: { loaded: Loaded<T>; what: string; children: (data: T) => ReactNode }) {
  if (loaded.error) return <Alert color="red" title={`Cannot load ${what}`}>{loaded.error.message}</Alert>;
  if (loaded.data === undefined) return <Loader size="sm" aria-label={`Loading ${what}`} />;
  return <>{children(loaded.data)}</>;
}

export function Pages({ total, size, page, onChange, label }: { total: number; size: number; page: number; onChange: (p: number) => void; label: string }) {
  if (total <= size) return null;
  return <Pagination total={Math.ceil(total / size)} value={page} onChange={onChange} aria-label={label} size="sm" />;
}

/** A two-column table of labels and values (a screen reader reads each label with its value). */
export function Facts({ rows, label }: { rows: [string, ReactNode][]; label: string }) {
  return (
    <Table aria-label={label} withRowBorders={false} verticalSpacing={4} layout="fixed" maw={720}>
      <Table.Tbody>
        {rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" w="38%" fw={500} c="dimmed">{name}</Table.Th>
            <Table.Td>{value ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export const Empty = ({ children }: { children: ReactNode }) => <Text c="dimmed" size="sm">{children}</Text>;
