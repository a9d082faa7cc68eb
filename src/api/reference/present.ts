import type { z } from 'zod';
import type { CatalogueRow, EntryFilter } from '../../domain/reference/catalogue';
import { contentPage, type ListPage, type SortField } from '../lists';
import { epoch } from '../present';
import type { entryItem, entryListQuery } from './schemas';

export function presentEntry(row: CatalogueRow): z.input<typeof entryItem> {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    created_on: epoch(row.createdAt),
    updated_on: epoch(row.updatedAt),
  };
}

/** API sort fields of every catalogue list → model fields. */
export const ENTRY_SORT: Record<string, SortField> = { name: 'name', code: { field: 'code', nullable: true }, created_on: 'createdAt' };

export function entryFilter(q: z.output<typeof entryListQuery>): EntryFilter {
  return { searchValue: q.search_value, code: q.code, name: q.name };
}

export function entryPage(q: { page: number; size: number }, page: ListPage<CatalogueRow>) {
  return contentPage(q, page.rows.map(presentEntry), page.total);
}
