import { Alert, Loader, Pagination, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import type { Loaded } from '../api/useLoad';

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

/** What surrounds a paged list's table: the refusal, the loading, the empty line and the pages. */
export function PagedList<T>({ list, what, empty, size, page, onPage, children }: {
  list: Loaded<{ content: T[]; paging: { total: number } }>;
  /** As in "Cannot load the segments". */
  what: string;
  empty: string;
  size: number;
  page: number;
  onPage: (page: number) => void;
  children: (rows: T[]) => ReactNode;
}) {
  const data = list.data;
  return (
    <>
      {list.error && <Alert color="red" title={`Cannot load ${what}`}>{list.error.message}</Alert>}
      {!data && !list.error && <Loader aria-label="Loading" />}
      {data && data.content.length === 0 && <Text c="dimmed">{empty}</Text>}
      {data && data.content.length > 0 && children(data.content)}
      {data && data.paging.total > size && <Pagination total={Math.ceil(data.paging.total / size)} value={page} onChange={onPage} aria-label="Pages" />}
    </>
  );
}
