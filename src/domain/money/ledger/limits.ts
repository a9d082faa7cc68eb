// Limit rules on debits and transfers out (docs/money.md "Refusals"): a minimum per transaction
// and a maximum per calendar day or year in UTC, counted by when the service wrote the
// transactions (a back-dated created_on does not move a debit out of today's limit). Voided
// transactions do not count.
import type { OrgSql } from '../../../db/sql';
import { conflict } from '../../errors';
import { Money, moneyText } from '../../money';
import type { LimitRule } from '../limit-rules';

const PERIOD_TOTALS = `SELECT COALESCE(SUM(amount) FILTER (WHERE created_at >= $4), 0)::text AS day, COALESCE(SUM(amount), 0)::text AS year
FROM wallet_transactions
WHERE organisation_id = $1 AND wallet_id = $2::uuid AND classification = ANY($3::text[]) AND life_cycle_state = 'POSTED' AND created_at >= $5`;

/** A purchase's spend is a debit too (docs/loyalty.md). */
const COUNTED = { DEBIT: ['DEBIT', 'SPEND'], TRANSFER: ['TRANSFER'] };

export async function checkLimits(sql: OrgSql, walletId: string, rules: LimitRule[], type: 'DEBIT' | 'TRANSFER', amount: Money, now: Date): Promise<void> {
  const applicable = rules.map((rule, index) => ({ rule, index })).filter(({ rule }) => rule.transactionType === type);
  if (!applicable.length) return;
  for (const { rule, index } of applicable) {
    if (rule.minimumAmount && amount.lt(rule.minimumAmount)) {
      throw conflict('LIMIT_EXCEEDED', `limit_rules.${index}: at least ${moneyText(rule.minimumAmount)} per ${type.toLowerCase()}`, `limit_rules.${index}`);
    }
  }
  if (!applicable.some(({ rule }) => rule.maximumAmount)) return;
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const year = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
  const [totals] = await sql.rows<{ day: string; year: string }>(PERIOD_TOTALS, [walletId, COUNTED[type], day, year]);
  for (const { rule, index } of applicable) {
    if (!rule.maximumAmount) continue;
    const spent = new Money(rule.period === 'DAILY' ? totals.day : totals.year);
    if (spent.plus(amount).gt(rule.maximumAmount)) {
      throw conflict(
        'LIMIT_EXCEEDED',
        `limit_rules.${index}: at most ${moneyText(rule.maximumAmount)} per ${rule.period === 'DAILY' ? 'day' : 'year'}; ${moneyText(spent)} already moved`,
        `limit_rules.${index}`,
      );
    }
  }
}
