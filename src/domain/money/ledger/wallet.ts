// The wallet a money write works on, locked for the rest of the transaction: every balance
// check, lot consumption and cached balance of one wallet happens under this lock, so
// concurrent debits serialise per wallet and cannot overspend (docs/money.md "Concurrency").
import type { OrgSql } from '../../../db/sql';
import { notFound } from '../../errors';
import { Money } from '../../money';
import { limitRulesFromJson, type LimitRule } from '../limit-rules';

export interface LockedWallet {
  id: string;
  accountId: string;
  contactId: string;
  currencyCode: string;
  /** EFFECTIVE, SUSPENDED, CANCELLED */
  lifeCycleState: string;
  accountState: string;
  /** Null: the organisation's default applies. */
  minimumBalance: Money | null;
  /** Null: the organisation's global rules apply. */
  limitRules: LimitRule[] | null;
  balance: Money;
  uncovered: Money;
  /** The stored auto_topup, if any (topup.ts reads it). */
  autoTopup: unknown;
}

const LOCK = `SELECT w.id, w.account_id AS "accountId", a.contact_id AS "contactId", w.currency_code AS "currencyCode",
  w.life_cycle_state AS "lifeCycleState", a.life_cycle_state AS "accountState", w.minimum_balance::text AS "minimumBalance",
  w.limit_rules AS "limitRules", w.balance::text AS balance, w.uncovered::text AS uncovered, w.auto_topup AS "autoTopup"
FROM wallets w JOIN accounts a ON a.id = w.account_id AND a.organisation_id = w.organisation_id
WHERE w.organisation_id = $1 AND w.id = $2::uuid
FOR UPDATE OF w`;

type Row = Omit<LockedWallet, 'minimumBalance' | 'limitRules' | 'balance' | 'uncovered'> & {
  minimumBalance: string | null;
  limitRules: unknown;
  balance: string;
  uncovered: string;
};

export async function lockWallet(sql: OrgSql, walletId: string, attribute?: string): Promise<LockedWallet> {
  const [row] = await sql.rows<Row>(LOCK, [walletId]);
  if (!row) throw notFound('Wallet', attribute);
  return {
    ...row,
    minimumBalance: row.minimumBalance === null ? null : new Money(row.minimumBalance),
    limitRules: row.limitRules === null ? null : limitRulesFromJson(row.limitRules),
    balance: new Money(row.balance),
    uncovered: new Money(row.uncovered),
  };
}
