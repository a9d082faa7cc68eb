// Undoing a purchase (docs/loyalty.md "Cancel and return"): a cancel voids every posted
// transaction of the purchase with compensating entries; an ad hoc return reverses its share of
// the awards and gives back its share of the spend. An award already spent is still taken back:
// what its lot no longer holds comes from the wallet's other funds, and what they lack leaves the
// wallet owing (below zero), so the books always match what the till did.
import type { OrgSql } from '../../../db/sql';
import { conflict, invalid, notFound } from '../../errors';
import { newId } from '../../ids';
import { Money, moneyText } from '../../money';
import { creditWallet, debitWallet, recordTransaction, type Cause } from '../../money/ledger/entries';
import type { MoneyContext } from '../../money/ledger/journal';
import { eligibleLots, take } from '../../money/ledger/lots';
import { recordMoneyChange } from '../../money/ledger/record';
import { compensateDebit, markVoid, transactionEntries, type Entry } from '../../money/ledger/void';
import { lockWallet, type LockedWallet } from '../../money/ledger/wallet';
import { resolveContact, type Ref } from './resolve';
import { addValueUnits } from './value-units';
import { nowSeconds } from '../../clock';

interface PurchaseRow {
  id: string;
  contactId: string;
  accountId: string;
  walletId: string | null;
  lifeCycleState: string;
  currencyCode: string;
  total: string;
  returned: string;
  performedOn: string;
  referenceNumber: string;
}

const COLUMNS = `id, contact_id AS "contactId", account_id AS "accountId", wallet_id AS "walletId", life_cycle_state AS "lifeCycleState",
  currency_code AS "currencyCode", total_amount::text AS total, returned_amount::text AS returned, performed_on AS "performedOn", reference_number AS "referenceNumber"`;
const BY_ID = `SELECT ${COLUMNS} FROM purchases WHERE organisation_id = $1 AND id = $2::uuid`;
const LOCK = `${BY_ID} FOR UPDATE`;
const BY_REFERENCE = `SELECT ${COLUMNS} FROM purchases WHERE organisation_id = $1 AND reference_number = $2 AND contact_id = $3::uuid`;

/** The purchase locked, after its wallet (the lock order of every money write: wallet, then purchase). */
async function lockPurchase(sql: OrgSql, found: PurchaseRow): Promise<{ purchase: PurchaseRow; wallet: LockedWallet | null }> {
  const wallet = found.walletId ? await lockWallet(sql, found.walletId) : null;
  const [purchase] = await sql.rows<PurchaseRow>(LOCK, [found.id]);
  if (purchase.lifeCycleState === 'CANCELLED') throw conflict('PURCHASE_CANCELLED', 'The purchase is already cancelled');
  return { purchase, wallet };
}

const POSTED = `SELECT id, classification, amount::text AS amount FROM wallet_transactions
WHERE organisation_id = $1 AND purchase_id = $2::uuid AND life_cycle_state = 'POSTED' ORDER BY created_at DESC, id DESC`;
const MARK_CANCELLED = `UPDATE purchases SET life_cycle_state = 'CANCELLED', cancelled_at = now() WHERE organisation_id = $1 AND id = $2::uuid`;
const CANCEL_VOUCHERS = `UPDATE vouchers SET life_cycle_state = 'CANCELLED', updated_at = now()
WHERE organisation_id = $1 AND purchase_id = $2::uuid AND life_cycle_state = 'ACTIVATED'`;

export async function cancelPurchase(m: MoneyContext, purchaseId: string, now = nowSeconds()): Promise<{ id: string }> {
  const [found] = await m.sql.rows<PurchaseRow>(BY_ID, [purchaseId]);
  if (!found) throw notFound('Purchase');
  const { purchase, wallet } = await lockPurchase(m.sql, found);
  for (const t of await m.sql.rows<{ id: string; classification: string; amount: string }>(POSTED, [purchase.id])) {
    const voidId = newId();
    await recordTransaction(m.sql, {
      id: voidId, contactId: purchase.contactId, accountId: purchase.accountId, walletId: wallet!.id, classification: 'VOID', amount: new Money(t.amount),
      description: `Cancel of purchase ${purchase.referenceNumber}`, transactionDate: now, createdBy: m.actor.actorId, purchaseId: purchase.id,
    });
    for (const entry of await transactionEntries(m.sql, t.id)) {
      if (new Money(entry.amount).gt(0)) await takeBack(m.sql, wallet!, voidId, entry, new Money(entry.amount), `void:${entry.id}`, 'VOID', now);
      else await compensateDebit(m.sql, wallet!, voidId, entry);
    }
    await markVoid(m.sql, t.id, voidId);
  }
  await m.sql.rows(MARK_CANCELLED, [purchase.id]);
  await m.sql.rows(CANCEL_VOUCHERS, [purchase.id]);
  await addValueUnits(m.sql, purchase.accountId, new Money(purchase.returned).minus(purchase.total), new Date(purchase.performedOn), now);
  await recordMoneyChange(
    m.sql, m.actor,
    { action: 'CANCEL', entityType: 'purchase', entityId: purchase.id },
    { type: 'PURCHASE_CANCELLED', payload: { purchase_id: purchase.id, contact_id: purchase.contactId, reference_number: purchase.referenceNumber } },
  );
  return { id: purchase.id };
}

/**
 * Takes `amount` of a credit back: first from what remains of its own lot, then from the
 * wallet's unrestricted funds; what they cannot give, the wallet owes.
 */
async function takeBack(sql: OrgSql, wallet: LockedWallet, transactionId: string, entry: Entry, amount: Money, key: string, cause: Cause, now: Date): Promise<void> {
  const own = Money.min(new Money(entry.lotRemaining ?? 0), amount);
  const others = take((await eligibleLots(sql, wallet.id, null, now)).filter((l) => l.id !== entry.id), amount.minus(own));
  await debitWallet(sql, wallet, {
    transactionId, cause, idempotencyKey: key, compensatesEntryId: entry.id, amount,
    consumptions: [...(own.gt(0) ? [{ lotEntryId: entry.id, amount: own }] : []), ...others.consumptions], uncovered: others.shortfall,
  });
}

export interface ReturnInput {
  contact_id?: string;
  cim?: string;
  reference_number: string;
  amount: Money;
  currency_code?: string;
  merchant_tap?: Ref;
  outlet_tap?: Ref;
}

// Each award and spend entry of the purchase with what earlier returns already moved against it.
const SHARES = `SELECT t.classification, e.id, e.amount::text AS amount, e.uncovered::text AS uncovered, l.amount::text AS "lotAmount",
  l.covered::text AS "lotCovered", l.remaining::text AS "lotRemaining",
  COALESCE((SELECT SUM(abs(r.amount)) FROM ledger_entries r WHERE r.organisation_id = $1 AND r.compensates_entry_id = e.id AND r.cause = 'RETURN'), 0)::text AS returned,
  COALESCE((SELECT json_agg(json_build_object('spendConditionId', x.spend_condition_id, 'validTo', x.valid_to))
    FROM lot_consumptions c JOIN lots x ON x.entry_id = c.lot_entry_id AND x.organisation_id = c.organisation_id
    WHERE c.organisation_id = $1 AND c.debit_entry_id = e.id), '[]'::json) AS consumed
FROM wallet_transactions t JOIN ledger_entries e ON e.organisation_id = t.organisation_id AND e.transaction_id = t.id
LEFT JOIN lots l ON l.organisation_id = e.organisation_id AND l.entry_id = e.id
WHERE t.organisation_id = $1 AND t.purchase_id = $2::uuid AND t.life_cycle_state = 'POSTED' AND t.classification IN ('AWARD', 'SPEND')
ORDER BY t.created_at, e.id`;
const ADD_RETURNED = `UPDATE purchases SET returned_amount = returned_amount + $3::numeric WHERE organisation_id = $1 AND id = $2::uuid`;

type Share = Omit<Entry, 'consumed'> & { classification: string; returned: string; consumed: Array<{ spendConditionId: string | null; validTo: string | null }> };

/**
 * POST /purchases/ad_hoc_return: the purchase of that reference for the contact, or null (the
 * API answers 200 without a body). Its share (amount / total, cumulative over returns, so the
 * last return settles every rounding) of each award is taken back and of the spend given back.
 */
export async function returnPurchase(m: MoneyContext, input: ReturnInput, now = nowSeconds()): Promise<{ id: string } | null> {
  const contactId = await resolveContact(m.sql, input);
  const [found] = await m.sql.rows<PurchaseRow>(BY_REFERENCE, [input.reference_number, contactId]);
  if (!found) return null;
  if (input.currency_code !== undefined && input.currency_code !== found.currencyCode) {
    throw invalid('currency_code', `The purchase is in ${found.currencyCode}`);
  }
  const { purchase, wallet } = await lockPurchase(m.sql, found);
  const total = new Money(purchase.total);
  const returnedAfter = new Money(purchase.returned).plus(input.amount);
  if (returnedAfter.gt(total)) {
    throw conflict('RETURN_EXCEEDS_PURCHASE', `${moneyText(total.minus(purchase.returned))} of the purchase is left to return`, 'amount');
  }
  if (wallet) {
    const returnId = newId();
    await recordTransaction(m.sql, {
      id: returnId, contactId: purchase.contactId, accountId: purchase.accountId, walletId: wallet.id, classification: 'RETURN', amount: input.amount,
      description: `Return on purchase ${purchase.referenceNumber}`, transactionDate: now, createdBy: m.actor.actorId, purchaseId: purchase.id,
    });
    for (const share of await m.sql.rows<Share>(SHARES, [purchase.id])) {
      const original = new Money(share.amount).abs();
      const target = returnedAfter.eq(total) ? original : original.times(returnedAfter).div(total).toDecimalPlaces(2, Money.ROUND_HALF_UP);
      const delta = target.minus(share.returned);
      if (!delta.gt(0)) continue;
      const key = `return:${returnId}:${share.id}`;
      if (share.classification === 'AWARD') await takeBack(m.sql, wallet, returnId, { ...share, consumed: [] }, delta, key, 'RETURN', now);
      else await creditWallet(m.sql, wallet, { transactionId: returnId, cause: 'RETURN', idempotencyKey: key, compensatesEntryId: share.id, amount: delta, ...refundTerms(share.consumed) });
    }
  }
  await m.sql.rows(ADD_RETURNED, [purchase.id, moneyText(input.amount)]);
  await addValueUnits(m.sql, purchase.accountId, input.amount.neg(), new Date(purchase.performedOn), now);
  await recordMoneyChange(
    m.sql, m.actor,
    { action: 'RETURN', entityType: 'purchase', entityId: purchase.id, changes: { amount: moneyText(input.amount) } },
    { type: 'PURCHASE_RETURNED', payload: { purchase_id: purchase.id, contact_id: purchase.contactId, reference_number: purchase.referenceNumber, amount: moneyText(input.amount), currency_code: purchase.currencyCode } },
  );
  return { id: purchase.id };
}

/** A spend given back is one credit: restricted when every lot it took shared one condition, expiring with the last of them. */
function refundTerms(consumed: Share['consumed']): { spendConditionId: string | null; validTo: Date | null } {
  if (!consumed.length) return { spendConditionId: null, validTo: null };
  const conditions = new Set(consumed.map((c) => c.spendConditionId));
  const spendConditionId = conditions.size === 1 ? [...conditions][0] : null;
  const validTo = consumed.some((c) => c.validTo === null) ? null : new Date(Math.max(...consumed.map((c) => Date.parse(c.validTo!))));
  return { spendConditionId, validTo };
}
