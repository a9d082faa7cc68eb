import { Pagination } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import type { Loaded } from '../api/useLoad';
import { DataTable, NoRows, type DataTableProps } from './DataTable';
import { Loading } from './Loading';

/**
 * A list's page and its name search (debounced): the page goes back to 1 when the search or one
 * of `filters` changes, since page 3 of the old results means nothing in the new ones.
 */
export function useSearchedPages(...filters: unknown[]) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  useEffect(() => setPage(1), [searched, ...filters]);
  return { page, setPage, search, setSearch, searched };
}

/** The API's paging envelope: `paging.total` counts every page; the page's rows have a name of the list's own, which `rows` picks. */
interface Envelope {
  paging: { total: number };
}

type Shown<T, D> = Omit<DataTableProps<T>, 'rows' | 'empty' | 'compact'> | { children: (rows: T[], data: D) => ReactNode };

type PagedListProps<T, D extends Envelope> = Shown<T, D> & {
  list: Loaded<D>;
  /** As in "Cannot load the segments", "Pages of the segments". */
  what: string;
  rows: (data: D) => T[];
  /** Left out, an empty page shows nothing but what `above` says (a count of 0). */
  empty?: string;
  size: number;
  page: number;
  onPage: (page: number) => void;
  /** Inside a section (a contact's tab): the smaller loader, text and pages of its surroundings. */
  compact?: boolean;
  /** What the answer shows above its rows (their count, the page's title). */
  above?: (data: D) => ReactNode;
};

/**
 * A page of a list with the refusal, the loading, the empty line and the pages around it. The rows
 * are a table of `columns`, or, for a list that is no table (a run's card each), `children`.
 */
export function PagedList<T, D extends Envelope>({ list, what, rows, empty, size, page, onPage, compact, above, ...shown }: PagedListProps<T, D>) {
  return (
    <Loading loaded={list} what={what} compact={compact}>
      {(data) => {
        const items = rows(data);
        const { total } = data.paging;
        return (
          <>
            {above?.(data)}
            {'children' in shown ? (
              items.length === 0 && empty !== undefined ? <NoRows text={empty} compact={compact} /> : shown.children(items, data)
            ) : (
              <DataTable {...shown} rows={items} empty={empty} compact={compact} />
            )}
            {total > size && <Pagination total={Math.ceil(total / size)} value={page} onChange={onPage} aria-label={`Pages of ${what}`} size={compact ? 'sm' : undefined} />}
          </>
        );
      }}
    </Loading>
  );
}
