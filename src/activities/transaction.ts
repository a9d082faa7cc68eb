// An activity's write: one transaction scoped to the organisation, with the request pipeline's
// policy (src/db/transaction.ts), handing over both the Prisma transaction and its `sql`.
import type { Db, Tx } from '../db/client';
import { txSql, type OrgSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import { WRITE_TRANSACTION } from '../db/transaction';

export function inOrgTransaction<T>(db: Db, organisationId: string, fn: (tx: Tx, sql: OrgSql) => Promise<T>, policy: { timeout?: number } = {}): Promise<T> {
  return scopedClient(db, organisationId).$transaction((tx) => fn(tx, txSql(tx, organisationId)), { ...WRITE_TRANSACTION, ...policy });
}
