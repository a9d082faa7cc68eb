// What every domain list function takes and returns (src/api/lists.ts builds the one from the
// query and the envelope from the other).

type Direction = 'asc' | 'desc';
/** One ORDER BY term as Prisma takes it, e.g. `{ name: 'asc' }` or `{ code: { sort, nulls } }`. */
export type OrderTerm = Record<string, Direction | { sort: Direction; nulls: 'first' | 'last' }>;

/** A page of a list as the API asks for it: 1-based `page` of `size` rows. */
export interface Paging {
  page: number;
  size: number;
}

export interface ListArgs {
  skip: number;
  take: number;
  orderBy: OrderTerm[];
}

export interface ListPage<T> {
  rows: T[];
  total: number;
}

/** The one text filter of named lists: `code` exact, `name` within the name, `searchValue` within either. */
export interface NameCodeFilter {
  searchValue?: string;
  code?: string;
  name?: string;
}

/** Case-insensitive text within a column, as Prisma takes it. */
export const within = (text: string) => ({ contains: text, mode: 'insensitive' as const });

type Within = ReturnType<typeof within>;

/** `text` within any of `fields`, as a where to merge into a list's own; nothing without text. */
export function searchWhere<F extends string>(fields: F[], text: string | undefined): { OR?: Array<Record<F, Within>> } {
  return text === undefined ? {} : { OR: fields.map((f) => ({ [f]: within(text) }) as Record<F, Within>) };
}

/** The filter as a Prisma where (case-insensitive); merge it into the list's own where. */
export function nameCodeWhere(q: NameCodeFilter) {
  return {
    ...(q.code === undefined ? {} : { code: q.code }),
    ...(q.name === undefined ? {} : { name: within(q.name) }),
    ...searchWhere(['name', 'code'], q.searchValue),
  };
}

/** A page from its rows and the count of all that match (the two queries run side by side). */
export async function pageOf<T>(rows: PromiseLike<T[]>, total: PromiseLike<number>): Promise<ListPage<T>> {
  const [r, t] = await Promise.all([rows, total]);
  return { rows: r, total: t };
}
