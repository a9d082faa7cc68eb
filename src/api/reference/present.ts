import type { z } from 'zod';
import type { CatalogueRow, ListQuery } from '../../domain/reference/catalogue';
import { epoch } from '../present';
import { skipTake } from '../validation';
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

export function toListQuery(q: z.output<typeof entryListQuery>): ListQuery {
  return {
    ...skipTake(q),
    sort: q.sort,
    order: q.order === 'ASC' ? 'asc' : 'desc',
    searchValue: q.search_value,
    code: q.code,
    name: q.name,
  };
}

export function listResponse(q: { page: number; size: number }, result: { rows: CatalogueRow[]; total: number }) {
  return { content: result.rows.map(presentEntry), paging: { page: q.page, size: q.size, total: result.total } };
}
