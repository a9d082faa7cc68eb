// Hand-written statements for hot paths, scoped to one organisation like `ctx.db`.
//
// Prisma costs ~0.4 ms of CPU per call whatever the query; a read that PostgreSQL answers in
// ~0.1 ms is then mostly ORM. `ctx.sql` runs a typed statement on pg directly (reads), or on the
// request's transaction (writes, so the statement sees the transaction's own changes). Either
// way the organisation id is parameter $1 and the statement must use it: a read must filter on
// `organisation_id = $1`, and every INSERT must list organisation_id among its columns (the
// value being $1 is the writer's care); anything else is refused before it reaches the database.
//
// Return JSON built by PostgreSQL (json_build_object / json_agg) or plain text, boolean and
// integer columns: those arrive identically on both paths. Numeric and bigint columns do not
// (pg gives text, Prisma a Decimal/BigInt), so cast them in SQL or read them through Prisma.
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { TenancyViolation } from './tenancy';
import type { Tx } from './client';

export interface OrgSql {
  /** Rows of `text`, whose $1 is the organisation; `params` are $2, $3, … */
  rows<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

const checked = new Set<string>();

function assertScoped(text: string): void {
  if (checked.has(text)) return;
  const inserts = [...text.matchAll(/INSERT\s+INTO\s+\w+\s*\(([^)]*)\)/gi)];
  const filtered = /organisation_id\s*=\s*\$1(?![0-9])/.test(text);
  // A write names the organisation in every row it inserts; a read filters on it.
  const scoped = inserts.length
    ? inserts.every((m) => /\borganisation_id\b/.test(m[1])) && /\$1(?![0-9])/.test(text)
    : filtered;
  if (!scoped) {
    throw new TenancyViolation('a statement on ctx.sql must filter on organisation_id = $1, or insert organisation_id in every INSERT');
  }
  checked.add(text);
}

/**
 * Straight to pg (one round trip, no ORM): on the pool for reads, or on the one connection that
 * holds the pipeline's own transaction (`transaction: 'sql'`, docs/money.md "The write path").
 * As a named prepared statement, so each connection parses and plans a statement once rather
 * than on every call (planning CONTACT_STATEMENT costs PostgreSQL about as much as running it).
 * The embedded database's wire server shares the names between its connections (src/db/pglite-wire.ts).
 */
export function pgSql(pg: Pool | PoolClient, organisationId: string): OrgSql {
  return {
    async rows<T>(text: string, params: readonly unknown[] = []) {
      assertScoped(text);
      const result = await pg.query({ name: statementName(text), text, values: [organisationId, ...params] });
      return result.rows as T[];
    },
  };
}

const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `org_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** Inside the request's transaction, through its connection. */
export function txSql(tx: Tx, organisationId: string): OrgSql {
  return {
    async rows<T>(text: string, params: readonly unknown[] = []) {
      assertScoped(text);
      return tx.$queryRawUnsafe<T[]>(text, organisationId, ...params);
    },
  };
}
