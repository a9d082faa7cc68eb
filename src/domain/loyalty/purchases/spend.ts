// The spend of a purchase (docs/loyalty.md "Spend", "Automatic spend"): what the request asks
// for, refused below the wallet's minimum, plus what automatic spend adds, as one SPEND debit
// that takes restricted funds where the purchase meets their condition, then unrestricted ones.
import type { OrgSql } from '../../../db/sql';
import { conflict, invalid } from '../../errors';
import { newId } from '../../ids';
import { Money, moneyText } from '../../money';
import { debitWallet } from '../../money/ledger/entries';
import { assertWritable, type MoneyContext } from '../../money/ledger/journal';
import { checkLimits } from '../../money/ledger/limits';
import { take, type EligibleLot } from '../../money/ledger/lots';
import { topUpIfLow } from '../../money/ledger/topup';
import type { LockedWallet } from '../../money/ledger/wallet';
import type { Line } from './awards';
import { conditionCaps } from './conditions';
import type { PurchaseInput } from './types';
import type { Buyer, Place } from './resolve';

/** The spend the request asks for, in the wallet currency; refusals that need no lock come first. */
export async function spendAsked(m: MoneyContext, input: PurchaseInput, buyer: Buyer, total: Money): Promise<Money> {
  const req = input.spend_request;
  let asked = req?.amount ?? new Money(0);
  if (req?.alternative_amount?.gt(0)) {
    const { alternativeCurrencyRate: rate } = await m.settings();
    if (!rate) throw invalid('spend_request.alternative_amount', 'The organisation has no alternative currency rate');
    asked = asked.plus(req.alternative_amount.div(rate).toDecimalPlaces(2, Money.ROUND_DOWN));
  }
  if (!asked.gt(0)) return asked;
  if (buyer.spendingBlocked) throw conflict('SPENDING_BLOCKED', "The account's spending is blocked", 'spend_request');
  if (!buyer.walletId) throw invalid('spend_request', 'The primary account has no wallet to spend from');
  if (asked.gt(total)) throw invalid('spend_request.amount', 'A purchase cannot spend more than its total_amount');
  return asked;
}

export interface SpendInput {
  wallet: LockedWallet;
  /** The wallet's lots valid now (validLotsJson), read after the lock by the purchase's insert. */
  lots: EligibleLot[];
  lines: Line[];
  performedOn: Date;
  buyer: Buyer;
  place: Place;
  total: Money;
  asked: Money;
  base: { contactId: string; accountId: string; walletId: string | null; transactionDate: Date; createdBy: string; purchaseId: string };
  now: Date;
}

const ALLOWED_MERCHANTS = `SELECT unit_id AS "unitId", is_next_visit AS "isNextVisit" FROM account_merchants
WHERE organisation_id = $1 AND account_id = $2::uuid`;
const NEXT_VISIT_DONE = 'UPDATE account_merchants SET is_next_visit = false WHERE organisation_id = $1 AND account_id = $2::uuid AND unit_id = $3::uuid';

/** One SPEND debit: what was asked (refused below the wallet's minimum) plus what automatic spend adds. */
export async function spendFromWallet(m: MoneyContext, s: SpendInput): Promise<{ transactionId: string; amount: Money } | null> {
  const { wallet, buyer, asked } = s;
  const auto = buyer.autoSpend;
  const autoMay = auto.enabled && !buyer.spendingBlocked && buyer.accountState === 'ACTIVE' && wallet.lifeCycleState === 'EFFECTIVE';
  if (!asked.gt(0) && !autoMay) return null;
  const minimum = wallet.minimumBalance;
  // Restricted funds count where the purchase meets their condition, up to what it covers.
  const { lots } = s;
  const restricted = [...new Set(lots.flatMap((l) => (l.spendConditionId ? [l.spendConditionId] : [])))];
  const caps = await conditionCaps(m.sql, restricted, { lines: s.lines, merchantUnitId: s.place.merchantUnitId, outletUnitId: s.place.outletUnitId, performedOn: s.performedOn });
  const spendable = take(lots, new Money(0), caps).available.minus(wallet.uncovered);
  if (asked.gt(0)) {
    assertWritable(wallet, 'DEBIT');
    if (spendable.minus(asked).lt(minimum)) {
      throw conflict('INSUFFICIENT_BALANCE', `The spend needs ${moneyText(asked)}; ${moneyText(spendable.minus(minimum))} is available above the minimum balance`, 'spend_request.amount');
    }
  }
  const automatic = autoMay ? await autoSpend(m.sql, s, spendable.minus(asked), minimum) : null;
  const amount = asked.plus(automatic?.amount ?? 0);
  if (!amount.gt(0)) return null;
  await checkLimits(m.sql, wallet.id, wallet.limitRules, 'DEBIT', amount, s.now);
  const allocation = take(lots, amount, caps);
  const transactionId = newId();
  await debitWallet(
    m.sql, wallet,
    { transactionId, cause: 'SPEND', idempotencyKey: `spend:${s.base.purchaseId}`, amount, consumptions: allocation.consumptions, uncovered: allocation.shortfall },
    { ...s.base, id: transactionId, classification: 'SPEND', amount, description: automatic ? 'Automatic spend' : null },
  );
  if (automatic?.nextVisitOf) await m.sql.rows(NEXT_VISIT_DONE, [buyer.accountId, automatic.nextVisitOf]);
  await topUpIfLow(m.sql, m.actor.organisationId, transactionId, wallet);
  return { transactionId, amount };
}

/**
 * Automatic spend (spec 2.6; docs/loyalty.md "Automatic spend"): at an allowed merchant, every
 * purchase from from_purchase_amount on keeping minimum_wallet_balance (ALL_MERCHANT_PURCHASE),
 * or the next purchase at a merchant marked is_next_visit (NEXT_MERCHANT_PURCHASE).
 */
async function autoSpend(sql: OrgSql, s: SpendInput, spendable: Money, walletMinimum: Money): Promise<{ amount: Money; nextVisitOf: string | null } | null> {
  const { preference, minimumBalance, fromAmount } = s.buyer.autoSpend;
  const at = [s.place.merchantUnitId, s.place.outletUnitId].filter((u): u is string => u !== null);
  if (!at.length) return null;
  const allowed = (await sql.rows<{ unitId: string; isNextVisit: boolean }>(ALLOWED_MERCHANTS, [s.buyer.accountId])).filter((a) => at.includes(a.unitId));
  let floor = walletMinimum;
  let nextVisitOf: string | null = null;
  if (preference === 'NEXT_MERCHANT_PURCHASE') {
    const next = allowed.find((a) => a.isNextVisit);
    if (!next) return null;
    nextVisitOf = next.unitId;
  } else {
    if (!allowed.length || (fromAmount !== null && s.total.lt(fromAmount))) return null;
    if (minimumBalance !== null) floor = Money.max(floor, minimumBalance);
  }
  const amount = Money.min(s.total.minus(s.asked), spendable.minus(floor));
  return amount.gt(0) ? { amount, nextVisitOf } : null;
}

