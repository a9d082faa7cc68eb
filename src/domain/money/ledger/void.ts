// Voiding a wallet transaction (spec 4.1; docs/money.md "Voids"): compensating entries point at
// what they cancel, the transaction becomes VOID, and the entries themselves never change.
import type { OrgSql } from '../../../db/sql';
import { checkCustomFields } from '../../custom-fields/check';
import type { CustomField } from '../../custom-fields/values';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { Money, moneyText } from '../../money';
import { creditWallet, debitWallet, recordTransaction } from './entries';
import type { MoneyContext } from './journal';
import { recordMoneyChange } from './record';
import { lockWallet, type LockedWallet } from './wallet';
import { nowSeconds } from '../../clock';

const TRANSACTION = `SELECT id, wallet_id AS "walletId", classification, life_cycle_state AS "lifeCycleState", amount::text AS amount, purchase_id AS "purchaseId"
FROM wallet_transactions WHERE organisation_id = $1 AND id = $2::uuid AND contact_id = $3::uuid`;

// Each entry of the transaction with, for a credit, its lot, and for a debit, what it consumed.
const ENTRIES = `SELECT e.id, e.amount::text AS amount, e.uncovered::text AS uncovered,
  l.amount::text AS "lotAmount", l.covered::text AS "lotCovered", l.remaining::text AS "lotRemaining",
  COALESCE((SELECT json_agg(json_build_object('lot', c.lot_entry_id, 'amount', c.amount::text, 'spendConditionId', x.spend_condition_id,
      'validFrom', x.valid_from, 'validTo', x.valid_to) ORDER BY c.created_at, c.id)
    FROM lot_consumptions c JOIN lots x ON x.entry_id = c.lot_entry_id AND x.organisation_id = c.organisation_id
    WHERE c.organisation_id = e.organisation_id AND c.debit_entry_id = e.id), '[]'::json) AS consumed
FROM ledger_entries e LEFT JOIN lots l ON l.entry_id = e.id AND l.organisation_id = e.organisation_id
WHERE e.organisation_id = $1 AND e.transaction_id = $2::uuid
ORDER BY e.created_at, e.id`;

const MARK_VOID = `UPDATE wallet_transactions SET life_cycle_state = 'VOID', voided_by_id = $3::uuid, custom_fields = COALESCE($4::jsonb, custom_fields)
WHERE organisation_id = $1 AND id = $2::uuid AND life_cycle_state = 'POSTED'`;

export type Entry = {
  id: string; amount: string; uncovered: string; lotAmount: string | null; lotCovered: string | null; lotRemaining: string | null;
  consumed: Array<{ lot: string; amount: string; spendConditionId: string | null; validFrom: string | null; validTo: string | null }>;
};

const VOIDABLE = new Set(['CREDIT', 'DEBIT', 'TOPUP']);

export async function voidTransaction(m: MoneyContext, contactId: string, transactionId: string, customFields?: readonly CustomField[]): Promise<{ id: string }> {
  await checkCustomFields(m.sql, 'WALLET_TRANSACTIONS', customFields);
  const found = await findTransaction(m.sql, contactId, transactionId);
  if (!found.walletId) throw conflict('INVALID_STATE_TRANSITION', 'Only wallet transactions can be voided here');
  // Under the wallet's lock a racing void waits, then sees VOID below.
  const wallet = await lockWallet(m.sql, found.walletId);
  const t = await findTransaction(m.sql, contactId, transactionId);
  if (t.lifeCycleState === 'VOID') throw conflict('ALREADY_VOID', 'The transaction is already void');
  if (t.purchaseId) throw conflict('PURCHASE_TRANSACTION', `The transaction belongs to purchase ${t.purchaseId}: cancel or return the purchase instead`);
  if (!VOIDABLE.has(t.classification)) throw conflict('INVALID_STATE_TRANSITION', `A ${t.classification} transaction cannot be voided`);

  const voidId = newId();
  await recordTransaction(m.sql, {
    id: voidId, contactId, accountId: wallet.accountId, walletId: wallet.id, classification: 'VOID', amount: new Money(t.amount),
    description: `Void of ${transactionId}`, transactionDate: nowSeconds(), createdBy: m.actor.actorId,
  });
  for (const entry of await transactionEntries(m.sql, transactionId)) {
    if (new Money(entry.amount).gt(0)) await compensateCredit(m.sql, wallet, voidId, entry);
    else await compensateDebit(m.sql, wallet, voidId, entry);
  }
  await markVoid(m.sql, transactionId, voidId, customFields);
  await recordMoneyChange(
    m.sql, m.actor,
    { action: 'VOID', entityType: 'wallet_transaction', entityId: transactionId, changes: { void_transaction_id: voidId } },
    { type: 'WALLET_TRANSACTION_VOIDED', payload: { transaction_id: transactionId, void_transaction_id: voidId, wallet_id: wallet.id, contact_id: contactId, amount: t.amount } },
  );
  return { id: transactionId };
}

/** Marks a posted transaction VOID, pointing at the transaction that compensates it. */
export async function markVoid(sql: OrgSql, transactionId: string, voidId: string, customFields?: unknown): Promise<void> {
  await sql.rows(MARK_VOID, [transactionId, voidId, customFields === undefined ? null : JSON.stringify(customFields)]);
}

/** The entries of a transaction, a credit with its lot, a debit with what it consumed. */
export function transactionEntries(sql: OrgSql, transactionId: string): Promise<Entry[]> {
  return sql.rows<Entry>(ENTRIES, [transactionId]);
}

async function findTransaction(sql: OrgSql, contactId: string, id: string) {
  const [t] = await sql.rows<{ id: string; walletId: string | null; classification: string; lifeCycleState: string; amount: string; purchaseId: string | null }>(TRANSACTION, [id, contactId]);
  if (!t) throw notFound('Wallet transaction');
  return t;
}

/** Takes back the whole credit from its lot; refused once part of it was spent. */
async function compensateCredit(sql: OrgSql, wallet: LockedWallet, voidId: string, entry: Entry): Promise<void> {
  const amount = new Money(entry.amount);
  const covered = new Money(entry.lotCovered ?? 0);
  const remaining = new Money(entry.lotRemaining ?? 0);
  if (remaining.lt(amount.minus(covered))) {
    throw conflict('INSUFFICIENT_BALANCE', `${moneyText(amount.minus(covered).minus(remaining))} of the credit was already spent: voiding it would overspend`);
  }
  // What the credit paid of old debts becomes owed again.
  await debitWallet(sql, wallet, {
    transactionId: voidId, cause: 'VOID', idempotencyKey: `void:${entry.id}`, compensatesEntryId: entry.id, amount,
    consumptions: remaining.isZero() ? [] : [{ lotEntryId: entry.id, amount: remaining }], uncovered: covered,
  });
}

/** Gives back what the debit took, lot by lot with the lots' conditions, and what it owed. */
export async function compensateDebit(sql: OrgSql, wallet: LockedWallet, voidId: string, entry: Entry): Promise<void> {
  const date = (v: string | null) => (v === null ? null : new Date(v));
  for (const c of entry.consumed) {
    await creditWallet(sql, wallet, {
      transactionId: voidId, cause: 'VOID', idempotencyKey: `void:${entry.id}:${c.lot}`, compensatesEntryId: entry.id, amount: new Money(c.amount),
      spendConditionId: c.spendConditionId, validFrom: date(c.validFrom), validTo: date(c.validTo),
    });
  }
  const owed = new Money(entry.uncovered);
  if (owed.gt(0)) {
    await creditWallet(sql, wallet, { transactionId: voidId, cause: 'VOID', idempotencyKey: `void:${entry.id}:uncovered`, compensatesEntryId: entry.id, amount: owed });
  }
}
