// The one builder of a hand-written statement's parameters. ctx.sql passes the organisation as
// $1, so the first value added is $2.

/** A page as the API asks for it (domain/lists.ts Paging): 1-based `page` of `size` rows. */
type Paging = { page: number; size: number };

export class SqlParams {
  readonly values: unknown[];

  /** `values`: the statement's first parameters after the organisation, in order. */
  constructor(...values: unknown[]) {
    this.values = values;
  }

  /** Adds a value and answers its placeholder, cast when `cast` is given (`$3::uuid`). */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    const ref = `$${this.values.length + 1}`;
    return cast ? `${ref}::${cast}` : ref;
  }

  /** The LIMIT and OFFSET of a page. */
  page(q: Paging): string {
    return `LIMIT ${this.add(q.size)} OFFSET ${this.add(offsetOf(q))}`;
  }
}

/** The rows before a page. */
export const offsetOf = (q: Paging) => (q.page - 1) * q.size;

/**
 * For a fixed statement (a named, prepared one): its LIMIT and OFFSET as parameters `$n` and
 * `$n+1`, whose values `pageValues` gives.
 */
export const pageAt = (n: number) => `LIMIT $${n} OFFSET $${n + 1}`;
export const pageValues = (q: Paging) => [q.size, offsetOf(q)];
