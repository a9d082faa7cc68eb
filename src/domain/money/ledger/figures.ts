// The balances of wallets as docs/money.md "Balances" defines them, derived from the cached
// balance and the lots in one statement for any number of wallets.
import type { OrgSql } from '../../../db/sql';
import { Money } from '../../money';

export interface WalletFigures {
  /** Sum of the wallet's entries. */
  balance: Money;
  /** Remaining of lots restricted to a spend condition. */
  conditional: Money;
  /** balance - conditional. */
  unconditional: Money;
  /** What can be spent now: lots valid now, minus debits the wallet still owes. */
  commerce: Money;
  /** Lots not valid yet: credited, not yet spendable. */
  open: Money;
  /** No cause of a hold exists yet (docs/money.md): always 0. */
  onHold: Money;
}

// Amounts leave PostgreSQL as text: pg would give numeric as text anyway, Prisma as a Decimal.
const FIGURES = `SELECT w.id, w.balance::text AS balance, w.uncovered::text AS uncovered,
  COALESCE(SUM(l.remaining) FILTER (WHERE l.spend_condition_id IS NOT NULL), 0)::text AS conditional,
  COALESCE(SUM(l.remaining) FILTER (WHERE (l.valid_from IS NULL OR l.valid_from <= now()) AND (l.valid_to IS NULL OR l.valid_to > now())), 0)::text AS spendable,
  COALESCE(SUM(l.remaining) FILTER (WHERE l.valid_from > now()), 0)::text AS future
FROM wallets w LEFT JOIN lots l ON l.wallet_id = w.id AND l.organisation_id = w.organisation_id AND l.remaining > 0
WHERE w.organisation_id = $1 AND w.id = ANY ($2::uuid[])
GROUP BY w.id`;

type Row = { id: string; balance: string; uncovered: string; conditional: string; spendable: string; future: string };

/** Figures of each given wallet of the organisation (absent ids are absent from the map). */
export async function walletFigures(sql: OrgSql, walletIds: readonly string[]): Promise<Map<string, WalletFigures>> {
  if (walletIds.length === 0) return new Map();
  const rows = await sql.rows<Row>(FIGURES, [walletIds]);
  return new Map(rows.map((r) => [r.id, toFigures(r)]));
}

function toFigures(r: Row): WalletFigures {
  const balance = new Money(r.balance);
  const conditional = new Money(r.conditional);
  return {
    balance,
    conditional,
    unconditional: balance.minus(conditional),
    commerce: new Money(r.spendable).minus(new Money(r.uncovered)),
    open: new Money(r.future),
    onHold: new Money(0),
  };
}
