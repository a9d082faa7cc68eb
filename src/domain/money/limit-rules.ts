// Wallet limit rules (spec 2.3, docs/money.md "Refusals"): the settings' global rules and, later,
// a wallet's own. Kept in JSON columns with amounts as decimal text.
import type { z } from 'zod';
import type { limitRule } from '../../api/money/settings/schemas';
import { Money, moneyText } from '../money';

export type LimitRuleInput = z.output<typeof limitRule>;

export interface LimitRule {
  period: 'DAILY' | 'ANNUAL';
  transactionType: 'DEBIT' | 'TRANSFER';
  /** The least one transaction may move. */
  minimumAmount: Money | null;
  /** The most all such transactions of the period may move together. */
  maximumAmount: Money | null;
}

/** A type, not an interface: Prisma's JSON input needs its implicit index signature. */
type StoredRule = {
  period: LimitRule['period'];
  transaction_type: LimitRule['transactionType'];
  minimum_amount: string | null;
  maximum_amount: string | null;
};

export function limitRulesFromInput(rules: LimitRuleInput[]): LimitRule[] {
  return rules.map((r) => ({ period: r.period, transactionType: r.transaction_type, minimumAmount: r.minimum_amount, maximumAmount: r.maximum_amount }));
}

export function limitRulesToJson(rules: LimitRule[]): StoredRule[] {
  const text = (m: Money | null) => (m === null ? null : moneyText(m));
  return rules.map((r) => ({ period: r.period, transaction_type: r.transactionType, minimum_amount: text(r.minimumAmount), maximum_amount: text(r.maximumAmount) }));
}

export function limitRulesFromJson(value: unknown): LimitRule[] {
  if (!Array.isArray(value)) return [];
  const money = (t: string | null) => (t === null ? null : new Money(t));
  return (value as StoredRule[]).map((r) => ({
    period: r.period,
    transactionType: r.transaction_type,
    minimumAmount: money(r.minimum_amount),
    maximumAmount: money(r.maximum_amount),
  }));
}
