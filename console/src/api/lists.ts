// Whole lists of the API for pickers: the pages of a `{content[], paging}` list, read up to a cap.
import { api } from './client';
import { ok } from './errors';

export interface ListPage<T> {
  content: T[];
  paging: { total: number };
}

/** The API's largest page. */
const SIZE = 100;

/**
 * Every item of a list, `cap` at most (a picker of more is no picker). `get` fetches one page;
 * the first answer's total says how many more to ask for, all at once.
 */
export async function loadAll<T>(get: (page: number, size: number) => Promise<ListPage<T>>, cap = 500): Promise<T[]> {
  const first = await get(1, SIZE);
  const pages = Math.min(Math.ceil(first.paging.total / SIZE), Math.ceil(cap / SIZE));
  const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => get(i + 2, SIZE)));
  return [first, ...rest].flatMap((p) => p.content).slice(0, cap);
}

/**
 * A list named by its path at run time (GET /automation_events' `values_from`): the typed client
 * cannot check such a path, so its answer is read as the generic list shape every list has.
 */
export function loadPath(path: string): Promise<Array<Record<string, unknown>>> {
  const get = (page: number, size: number) =>
    ok(api.GET(path as '/countries', { params: { query: { page, size } } })) as unknown as Promise<ListPage<Record<string, unknown>>>;
  return loadAll(get);
}
