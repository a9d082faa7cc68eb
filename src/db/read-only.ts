// A transaction the database refuses every write in (transaction_read_only): what an automation's
// simulation runs in, so that no code path it reaches, today's or a later one, can write a row.
import type { Db, Tx } from './client';
import { txSql, type OrgSql } from './sql';

const READ_ONLY = `SELECT set_config('transaction_read_only', 'on', true) WHERE $1::uuid IS NOT NULL`;

/**
 * `db`: the organisation's scoped client (a route's `ctx.db` when it opens no transaction, an
 * activity's scopedClient), which is a client that can open one although a route types it `Tx`.
 */
export function readOnlyTransaction<T>(db: Tx | Db, organisationId: string, fn: (tx: Tx, sql: OrgSql) => Promise<T>): Promise<T> {
  return clientOf(db).$transaction(async (tx) => {
    await tx.$queryRawUnsafe(READ_ONLY, organisationId);
    return fn(tx, txSql(tx, organisationId));
  }, { maxWait: 10_000, timeout: 60_000 });
}

/** The client behind a route's `ctx.db` when the route opens no transaction (`transaction: false`); a transaction is refused. */
export function clientOf(db: Tx | Db): Db {
  const client = db as Db;
  if (typeof client.$transaction !== 'function') throw new Error('a client is needed here, not a transaction');
  return client;
}
