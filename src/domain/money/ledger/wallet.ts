// The wallet a money write works on, locked for the rest of the transaction: every balance
// check, lot consumption and cached balance of one wallet happens under this lock, so
// concurrent debits serialise per wallet and cannot overspend (docs/money.md "Concurrency").
// What must be read after the lock (lots, limit totals) is read by a later statement: a
// statement's snapshot is taken before it waits for the lock, so it would not see what the
// writer it waited for committed.
import type { OrgSql } from '../../../db/sql';
import { notFound } from '../../errors';
import { Money, moneyText } from '../../money';
import { limitRulesFromJson, type LimitRule } from '../limit-rules';
import { SETTINGS_DEFAULTS } from '../settings';

export interface LockedWallet {
  id: string;
  accountId: string;
  contactId: string;
  currencyCode: string;
  /** EFFECTIVE, SUSPENDED, CANCELLED */
  lifeCycleState: string;
  accountState: string;
  /** The wallet's own, else the organisation's default (read with the lock). */
  minimumBalance: Money;
  /** The wallet's own rules, else the organisation's global ones (read with the lock). */
  limitRules: LimitRule[];
  balance: Money;
  uncovered: Money;
  /** The stored auto_topup, if any (topup.ts reads it). */
  autoTopup: unknown;
}

/**
 * The SELECT that locks a wallet (w) with its account (wa) and the organisation's settings (ws),
 * for `condition` (and an optional ORDER BY ... LIMIT); a purchase runs it inside its context
 * statement (loyalty/purchases/resolve.ts).
 */
export function lockedWalletSelect(condition: string, orderLimit = ''): string {
  return `SELECT w.id, w.account_id AS "accountId", wa.contact_id AS "contactId", w.currency_code AS "currencyCode",
  w.life_cycle_state AS "lifeCycleState", wa.life_cycle_state AS "accountState",
  COALESCE(w.minimum_balance, ws.default_wallet_minimum_balance, ${moneyText(SETTINGS_DEFAULTS.defaultWalletMinimumBalance)})::text AS "minimumBalance",
  COALESCE(w.limit_rules, ws.limit_rules, '[]'::jsonb) AS "limitRules", w.balance::text AS balance, w.uncovered::text AS uncovered, w.auto_topup AS "autoTopup"
FROM wallets w JOIN accounts wa ON wa.id = w.account_id AND wa.organisation_id = w.organisation_id
LEFT JOIN organisation_settings ws ON ws.organisation_id = w.organisation_id
WHERE w.organisation_id = $1 AND ${condition}
${orderLimit} FOR UPDATE OF w`;
}

const LOCK = lockedWalletSelect('w.id = $2::uuid');

export type LockedWalletRow = Omit<LockedWallet, 'minimumBalance' | 'limitRules' | 'balance' | 'uncovered'> & {
  minimumBalance: string;
  limitRules: unknown;
  balance: string;
  uncovered: string;
};

export async function lockWallet(sql: OrgSql, walletId: string, attribute?: string): Promise<LockedWallet> {
  const [row] = await sql.rows<LockedWalletRow>(LOCK, [walletId]);
  if (!row) throw notFound('Wallet', attribute);
  return lockedWallet(row);
}

/** The wallet of a lockedWalletSelect row (or of its JSON). */
export function lockedWallet(row: LockedWalletRow): LockedWallet {
  return {
    ...row,
    minimumBalance: new Money(row.minimumBalance),
    limitRules: limitRulesFromJson(row.limitRules),
    balance: new Money(row.balance),
    uncovered: new Money(row.uncovered),
  };
}
