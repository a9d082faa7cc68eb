// The contact's money reads (spec 2.11, 4.1) and a wallet's balances per spend condition
// (spec 2.4): one statement each on ctx.sql, amounts as text into Money.
import { pageAt, pageValues, SqlParams } from '../../../db/sql-params';
import type { OrgSql } from '../../../db/sql';
import { SQL_NOW_SECONDS } from '../../clock';
import { Money } from '../../money';
import { walletFigures, type WalletFigures } from './figures';

export interface ContactWallet {
  id: string;
  accountId: string;
  code: string;
  currencyCode: string;
  lifeCycleState: string;
  figures: WalletFigures;
}

const CONTACT_WALLETS = `SELECT w.id, w.account_id AS "accountId", w.code, w.currency_code AS "currencyCode", w.life_cycle_state AS "lifeCycleState"
FROM wallets w JOIN accounts a ON a.id = w.account_id AND a.organisation_id = w.organisation_id
WHERE w.organisation_id = $1 AND a.contact_id = $2::uuid
ORDER BY w.created_at, w.id`;

export async function contactWallets(sql: OrgSql, contactId: string): Promise<ContactWallet[]> {
  const wallets = await sql.rows<Omit<ContactWallet, 'figures'>>(CONTACT_WALLETS, [contactId]);
  const figures = await walletFigures(sql, wallets.map((w) => w.id));
  return wallets.map((w) => ({ ...w, figures: figures.get(w.id)! }));
}

export interface TransactionQuery {
  created_on_from?: number;
  created_on_to?: number;
  classification?: string;
  life_cycle_state?: string;
  sort?: 'created_on' | 'amount' | 'number' | 'transaction_date';
  order: 'ASC' | 'DESC';
  page: number;
  size: number;
}

export interface TransactionRow {
  id: string;
  accountId: string;
  walletId: string | null;
  number: string;
  classification: string;
  lifeCycleState: string;
  amount: string;
  currencyCode: string | null;
  transactionDate: Date;
  expirationDate: Date | null;
  createdBy: string;
  createdAt: Date;
  total: number;
}

const SORT: Record<NonNullable<TransactionQuery['sort']>, string> = {
  created_on: 't.created_at', amount: 't.amount', number: 't.number', transaction_date: 't.transaction_date',
};

export async function contactTransactions(sql: OrgSql, contactId: string, q: TransactionQuery): Promise<{ rows: TransactionRow[]; total: number }> {
  const params = new SqlParams(contactId);
  const where = ['t.organisation_id = $1', 't.contact_id = $2::uuid'];
  if (q.created_on_from !== undefined) where.push(`t.created_at >= to_timestamp(${params.add(q.created_on_from)})`);
  // Inclusive to the end of the given second.
  if (q.created_on_to !== undefined) where.push(`t.created_at < to_timestamp(${params.add(q.created_on_to + 1)})`);
  if (q.classification !== undefined) where.push(`t.classification = ${params.add(q.classification)}`);
  if (q.life_cycle_state !== undefined) where.push(`t.life_cycle_state = ${params.add(q.life_cycle_state)}`);
  const direction = q.order === 'ASC' ? 'ASC' : 'DESC';
  const rows = await sql.rows<TransactionRow>(
    `SELECT t.id, t.account_id AS "accountId", t.wallet_id AS "walletId", t.number::text AS number, t.classification,
       t.life_cycle_state AS "lifeCycleState", t.amount::text AS amount, w.currency_code AS "currencyCode",
       t.transaction_date AS "transactionDate", t.expiration_date AS "expirationDate", t.created_by AS "createdBy",
       t.created_at AS "createdAt", (count(*) OVER ())::int AS total
     FROM wallet_transactions t LEFT JOIN wallets w ON w.id = t.wallet_id AND w.organisation_id = t.organisation_id
     WHERE ${where.join(' AND ')}
     ORDER BY ${SORT[q.sort ?? 'created_on']} ${direction}, t.id ${direction}
     ${params.page(q)}`,
    params.values,
  );
  return { rows, total: rows[0]?.total ?? 0 };
}

export interface BalanceBucket {
  spendConditionId: string | null;
  amount: Money;
  /** Remaining by days until valid_to; no expiry counts as 90+. */
  expiration: { zeroToThirty: Money; thirtyToSixty: Money; sixtyToNinety: Money; ninetyPlus: Money };
}

// Unexpired lots of the wallet, per spend condition (null: unrestricted funds), with the
// expiration buckets of docs/money.md; a bucket's bounds are whole seconds, as valid_to is.
const BALANCES = `SELECT l.spend_condition_id AS "spendConditionId", SUM(l.remaining)::text AS amount,
  COALESCE(SUM(l.remaining) FILTER (WHERE l.valid_to < ${SQL_NOW_SECONDS} + interval '30 days'), 0)::text AS d30,
  COALESCE(SUM(l.remaining) FILTER (WHERE l.valid_to >= ${SQL_NOW_SECONDS} + interval '30 days' AND l.valid_to < ${SQL_NOW_SECONDS} + interval '60 days'), 0)::text AS d60,
  COALESCE(SUM(l.remaining) FILTER (WHERE l.valid_to >= ${SQL_NOW_SECONDS} + interval '60 days' AND l.valid_to < ${SQL_NOW_SECONDS} + interval '90 days'), 0)::text AS d90,
  COALESCE(SUM(l.remaining) FILTER (WHERE l.valid_to IS NULL OR l.valid_to >= ${SQL_NOW_SECONDS} + interval '90 days'), 0)::text AS rest,
  (count(*) OVER ())::int AS total
FROM lots l
WHERE l.organisation_id = $1 AND l.wallet_id = $2::uuid AND l.remaining > 0 AND (l.valid_to IS NULL OR l.valid_to > now())
  AND ($3::uuid IS NULL OR l.spend_condition_id = $3::uuid)
GROUP BY l.spend_condition_id
ORDER BY SUM(l.remaining) %DIR%, l.spend_condition_id NULLS FIRST
${pageAt(4)}`;

export async function walletBalances(sql: OrgSql, walletId: string, spendConditionId: string | null, q: { order: 'ASC' | 'DESC'; page: number; size: number }): Promise<BalanceBucket[]> {
  const text = BALANCES.replace('%DIR%', q.order === 'ASC' ? 'ASC' : 'DESC');
  const rows = await sql.rows<{ spendConditionId: string | null; amount: string; d30: string; d60: string; d90: string; rest: string }>(text, [
    walletId, spendConditionId, ...pageValues(q),
  ]);
  return rows.map((r) => ({
    spendConditionId: r.spendConditionId,
    amount: new Money(r.amount),
    expiration: { zeroToThirty: new Money(r.d30), thirtyToSixty: new Money(r.d60), sixtyToNinety: new Money(r.d90), ninetyPlus: new Money(r.rest) },
  }));
}

const WALLET_EXISTS = 'SELECT id FROM wallets WHERE organisation_id = $1 AND id = $2::uuid';

export async function walletExists(sql: OrgSql, walletId: string): Promise<boolean> {
  return (await sql.rows(WALLET_EXISTS, [walletId])).length > 0;
}
