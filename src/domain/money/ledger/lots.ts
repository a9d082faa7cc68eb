// Which lots a debit takes from (docs/money.md "Lots"): lots valid at the debit's moment,
// restricted ones of its spend condition first, then unrestricted; soonest-expiring first
// (no expiry last), then the oldest. A debit without a spend condition takes unrestricted lots
// only: nothing shows it meets a restriction.
import type { OrgSql } from '../../../db/sql';
import { Money } from '../../money';
import type { Consumption } from './entries';

const ELIGIBLE = `SELECT entry_id AS id, remaining::text AS remaining FROM lots
WHERE organisation_id = $1 AND wallet_id = $2::uuid AND remaining > 0
  AND (valid_from IS NULL OR valid_from <= $3) AND (valid_to IS NULL OR valid_to > $3)
  AND (spend_condition_id IS NULL OR spend_condition_id = $4::uuid)
ORDER BY (spend_condition_id IS NULL), valid_to ASC NULLS LAST, created_at, entry_id`;

export interface Allocation {
  consumptions: Consumption[];
  /** Sum of every eligible lot, taken or not. */
  available: Money;
  /** What the lots could not give. */
  shortfall: Money;
}

export async function allocate(sql: OrgSql, walletId: string, amount: Money, spendConditionId: string | null, at: Date): Promise<Allocation> {
  const lots = await sql.rows<{ id: string; remaining: string }>(ELIGIBLE, [walletId, at, spendConditionId]);
  const consumptions: Consumption[] = [];
  let available = new Money(0);
  let left = amount;
  for (const lot of lots) {
    const remaining = new Money(lot.remaining);
    available = available.plus(remaining);
    if (left.isZero()) continue;
    const take = Money.min(left, remaining);
    consumptions.push({ lotEntryId: lot.id, amount: take });
    left = left.minus(take);
  }
  return { consumptions, available, shortfall: left };
}
