// What every domain list function takes and returns (src/api/lists.ts builds the one from the
// query and the envelope from the other).

type Direction = 'asc' | 'desc';
/** One ORDER BY term as Prisma takes it, e.g. `{ name: 'asc' }` or `{ code: { sort, nulls } }`. */
export type OrderTerm = Record<string, Direction | { sort: Direction; nulls: 'first' | 'last' }>;

export interface ListArgs {
  skip: number;
  take: number;
  orderBy: OrderTerm[];
}

export interface ListPage<T> {
  rows: T[];
  total: number;
}
