// Lists, in one shape (API-CONVENTIONS "Lists"): the validated query becomes skip/take/order for
// the domain (`listArgs`), and the domain's `{ rows, total }` becomes one of spec.md's envelopes.
import { z } from 'zod';
import { offsetOf } from '../db/sql-params';
import type { ListArgs, NameCodeFilter, OrderTerm, Paging } from '../domain/lists';

export { offsetOf };

export type { ListArgs, ListPage, NameCodeFilter, Paging } from '../domain/lists';

export interface ListQuery extends Paging {
  sort?: string;
  order: 'ASC' | 'DESC';
}

type Direction = 'asc' | 'desc';

/** A model field, or for a nullable one `{ field, nullable: true }` (its nulls sort last). */
export type SortField = string | { field: string; nullable: true };

/**
 * `sortFields` maps each API sort field to its model field; without `sort` the list is in
 * creation order. The id breaks ties so pages never overlap.
 */
export function listArgs(q: ListQuery, sortFields: Record<string, SortField> = {}, defaultField = 'createdAt'): ListArgs {
  const dir: Direction = q.order === 'ASC' ? 'asc' : 'desc';
  const chosen = (q.sort && sortFields[q.sort]) || defaultField;
  const term: OrderTerm = typeof chosen === 'string' ? { [chosen]: dir } : { [chosen.field]: { sort: dir, nulls: 'last' } };
  return { skip: offsetOf(q), take: q.size, orderBy: chosen === 'id' ? [term] : [term, { id: dir }] };
}

export const pagingSchema = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int() });

const paging = (q: Paging, total: number) => ({ page: q.page, size: q.size, total });

/** `{ content[], paging }`: most lists. */
export function contentPage<T>(q: Paging, items: T[], total: number) {
  return { content: items, paging: paging(q, total) };
}

/** `{ <name>[], paging }`: accounts, contacts, members, purchases, activity_feed, merchants. */
export function namedPage<N extends string, T>(name: N, q: Paging, items: T[], total: number) {
  return { [name]: items, paging: paging(q, total) } as { [K in N]: T[] } & { paging: ReturnType<typeof paging> };
}

/** `{ content[], pages }`: the two analysis lists. */
export function pagesPage<T>(q: Paging, items: T[], total: number) {
  return { content: items, pages: paging(q, total) };
}

export const contentList = <T extends z.ZodType>(item: T) => z.object({ content: z.array(item), paging: pagingSchema });
export const namedList = <N extends string, T extends z.ZodType>(name: N, item: T) =>
  z.object({ [name]: z.array(item), paging: pagingSchema } as { [K in N]: z.ZodArray<T> } & { paging: typeof pagingSchema });
export const pagesList = <T extends z.ZodType>(item: T) => z.object({ content: z.array(item), pages: pagingSchema });

/** The query fields of the name/code filter, for a list query to extend. */
export const nameCodeQuery = {
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the name or the code.' }),
  code: z.string().min(1).max(100).optional().meta({ description: 'Exact code.' }),
  name: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the name.' }),
};

export const nameCodeFilter = (q: { search_value?: string; code?: string; name?: string }): NameCodeFilter => ({
  searchValue: q.search_value,
  code: q.code,
  name: q.name,
});

/** The sort fields of a named list; a code is optional, so its nulls sort last. */
export const NAME_CODE_SORT: Record<string, SortField> = { name: 'name', code: { field: 'code', nullable: true }, created_on: 'createdAt' };
