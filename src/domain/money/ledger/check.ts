// The ledger's invariants (docs/money.md "Proof"), checked from the records themselves: run by
// `npm run admin -- check-ledger` and by the tests after every money test. Answers every
// violation found (an empty list: the ledger holds).
import type { Db } from '../../../db/client';

export interface LedgerViolation {
  rule: string;
  id: string;
  detail: string;
}

const CHECKS: Array<{ rule: string; sql: string }> = [
  {
    rule: 'wallet balance = sum of its entries',
    sql: `SELECT w.id, w.balance::text || ' <> ' || COALESCE(SUM(e.amount), 0)::text AS detail FROM wallets w
      LEFT JOIN ledger_entries e ON e.wallet_id = w.id WHERE ($1::uuid IS NULL OR w.organisation_id = $1)
      GROUP BY w.id HAVING w.balance <> COALESCE(SUM(e.amount), 0)`,
  },
  {
    rule: 'account balance = sum of its receivable book',
    sql: `SELECT a.id, a.balance::text || ' <> ' || COALESCE(SUM(e.amount), 0)::text AS detail FROM accounts a
      LEFT JOIN ledger_entries e ON e.account_id = a.id AND e.wallet_id IS NULL WHERE ($1::uuid IS NULL OR a.organisation_id = $1)
      GROUP BY a.id HAVING a.balance <> COALESCE(SUM(e.amount), 0)`,
  },
  {
    rule: 'lot remaining = amount - covered - consumptions, and 0 <= remaining',
    sql: `SELECT l.entry_id AS id, l.remaining::text || ' vs ' || (l.amount - l.covered - COALESCE(SUM(c.amount), 0))::text AS detail FROM lots l
      LEFT JOIN lot_consumptions c ON c.lot_entry_id = l.entry_id WHERE ($1::uuid IS NULL OR l.organisation_id = $1)
      GROUP BY l.entry_id HAVING l.remaining <> l.amount - l.covered - COALESCE(SUM(c.amount), 0) OR l.remaining < 0 OR l.covered < 0`,
  },
  {
    rule: 'a debit consumed no more than its amount',
    sql: `SELECT e.id, (-e.amount)::text || ' < ' || (e.uncovered + COALESCE(SUM(c.amount), 0))::text AS detail FROM ledger_entries e
      LEFT JOIN lot_consumptions c ON c.debit_entry_id = e.id WHERE e.amount < 0 AND e.wallet_id IS NOT NULL AND ($1::uuid IS NULL OR e.organisation_id = $1)
      GROUP BY e.id HAVING -e.amount <> e.uncovered + COALESCE(SUM(c.amount), 0) OR e.uncovered < 0`,
  },
  {
    rule: 'wallet balance = remaining lots - what it owes',
    sql: `SELECT w.id, w.balance::text || ' <> ' || (COALESCE(SUM(l.remaining), 0) - w.uncovered)::text AS detail FROM wallets w
      LEFT JOIN lots l ON l.wallet_id = w.id WHERE ($1::uuid IS NULL OR w.organisation_id = $1)
      GROUP BY w.id HAVING w.balance <> COALESCE(SUM(l.remaining), 0) - w.uncovered OR w.uncovered < 0`,
  },
];

/** Every violation, for one organisation or (organisationId null) all of them. */
export async function checkLedger(db: Db, organisationId: string | null = null): Promise<LedgerViolation[]> {
  const found: LedgerViolation[] = [];
  for (const check of CHECKS) {
    const rows = await db.$queryRawUnsafe<Array<{ id: string; detail: string }>>(check.sql, organisationId);
    found.push(...rows.map((r) => ({ rule: check.rule, id: r.id, detail: r.detail })));
  }
  return found;
}
