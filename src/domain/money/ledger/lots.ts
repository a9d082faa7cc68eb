// Which lots a debit takes from (docs/money.md "Lots"): lots valid at the debit's moment,
// restricted ones of its spend condition first, then unrestricted; soonest-expiring first
// (no expiry last), then the oldest. A journal debit without a spend condition takes
// unrestricted lots only: nothing shows it meets a restriction. A purchase's spend takes the
// restricted lots of every condition the purchase meets, each up to what the condition covers
// (docs/loyalty.md "Spend").
import type { OrgSql } from '../../../db/sql';
import { Money } from '../../money';
import type { Consumption } from './entries';

// The order a debit takes lots in.
const ORDER = '(spend_condition_id IS NULL), valid_to ASC NULLS LAST, created_at, entry_id';

/** Lots of the wallet valid at the time; the parameters are named so a larger statement can read them along. */
const eligibleWhere = (p: { wallet: string; at: string }) => `organisation_id = $1 AND wallet_id = ${p.wallet}::uuid AND remaining > 0
  AND (valid_from IS NULL OR valid_from <= ${p.at}::timestamptz) AND (valid_to IS NULL OR valid_to > ${p.at}::timestamptz)`;

// $4: the spend conditions whose lots count besides unrestricted ones.
const ELIGIBLE = `SELECT entry_id AS id, remaining::text AS remaining, spend_condition_id AS "spendConditionId" FROM lots
WHERE ${eligibleWhere({ wallet: '$2', at: '$3' })}
  AND (spend_condition_id IS NULL OR spend_condition_id = ANY($4::uuid[]))
ORDER BY ${ORDER}`;

/**
 * Every lot valid at `at`, restricted or not, in the order a debit takes them, as a JSON
 * expression (EligibleLot[]) for a statement that runs after the wallet's lock and reads them
 * along (a purchase's insert: loyalty/purchases/post.ts).
 */
export function validLotsJson(p: { wallet: string; at: string }): string {
  return `COALESCE((SELECT json_agg(json_build_object('id', entry_id, 'remaining', remaining::text, 'spendConditionId', spend_condition_id) ORDER BY ${ORDER})
  FROM lots WHERE ${eligibleWhere(p)}), '[]'::json)`;
}

export interface Allocation {
  consumptions: Consumption[];
  /** Sum of every eligible lot, taken or not. */
  available: Money;
  /** What the lots could not give. */
  shortfall: Money;
}

export interface EligibleLot {
  id: string;
  remaining: string;
  spendConditionId: string | null;
}

/** The lots a debit at `at` may take from, in the order it takes them. */
export function eligibleLots(sql: OrgSql, walletId: string, spendConditionId: string | null, at: Date): Promise<EligibleLot[]> {
  return sql.rows<EligibleLot>(ELIGIBLE, [walletId, at, spendConditionId === null ? [] : [spendConditionId]]);
}

export async function allocate(sql: OrgSql, walletId: string, amount: Money, spendConditionId: string | null, at: Date): Promise<Allocation> {
  return take(await eligibleLots(sql, walletId, spendConditionId, at), amount);
}

/**
 * What a debit of `amount` takes from `lots`, in their order. With `caps`, a restricted lot
 * counts only when its condition has a cap, and the lots of one condition give at most that cap.
 */
export function take(lots: EligibleLot[], amount: Money, caps?: Map<string, Money>): Allocation {
  const consumptions: Consumption[] = [];
  let available = new Money(0);
  let left = amount;
  const capLeft = new Map(caps);
  for (const lot of lots) {
    let remaining = new Money(lot.remaining);
    const condition = caps && lot.spendConditionId;
    if (condition) {
      const cap = capLeft.get(condition);
      if (!cap) continue;
      remaining = Money.min(remaining, cap);
      capLeft.set(condition, cap.minus(remaining));
      if (remaining.isZero()) continue;
    }
    available = available.plus(remaining);
    if (left.isZero()) continue;
    const take = Money.min(left, remaining);
    consumptions.push({ lotEntryId: lot.id, amount: take });
    left = left.minus(take);
  }
  return { consumptions, available, shortfall: left };
}
