// Moving money between books as TRANSFER transactions (docs/money.md "Account termination"):
// lot by lot, so restrictions and validity travel with the value, and what a wallet owes
// travels as a debt. Every entry's key derives from the source, so a repeat writes nothing.
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { newId } from '../../ids';
import { Money } from '../../money';
import { creditWallet, debitWallet, recordTransaction } from './entries';
import { recordMoneyChange } from './record';
import type { LockedWallet } from './wallet';
import { nowSeconds } from '../../clock';

const LIVE_LOTS = `SELECT entry_id AS id, remaining::text AS remaining, spend_condition_id AS "spendConditionId", valid_from AS "validFrom", valid_to AS "validTo"
FROM lots WHERE organisation_id = $1 AND wallet_id = $2::uuid AND remaining > 0 ORDER BY created_at, entry_id`;

/** Moves everything of `from` into `to` (both locked, same currency); answers the amount moved. */
export async function transferWallet(sql: OrgSql, actor: AuditActor, from: LockedWallet, to: LockedWallet, keyPrefix: string): Promise<Money> {
  const lots = await sql.rows<{ id: string; remaining: string; spendConditionId: string | null; validFrom: Date | null; validTo: Date | null }>(LIVE_LOTS, [from.id]);
  const owed = from.uncovered;
  const moved = from.balance;
  if (!lots.length && owed.isZero()) return new Money(0);
  // One transaction on each side, so each contact sees its own TRANSFER.
  const [outId, inId] = [newId(), newId()];
  const amount = moved.abs();
  const common = { classification: 'TRANSFER' as const, amount, transactionDate: nowSeconds(), createdBy: actor.actorId };
  await recordTransaction(sql, { ...common, id: outId, contactId: from.contactId, accountId: from.accountId, walletId: from.id, description: `Transfer to wallet ${to.id}`, counterpartId: inId });
  await recordTransaction(sql, { ...common, id: inId, contactId: to.contactId, accountId: to.accountId, walletId: to.id, description: `Transfer from wallet ${from.id}`, counterpartId: outId });
  for (const lot of lots) {
    const value = new Money(lot.remaining);
    await debitWallet(sql, from, { transactionId: outId, cause: 'TERMINATION', idempotencyKey: `${keyPrefix}:out:${lot.id}`, amount: value, consumptions: [{ lotEntryId: lot.id, amount: value }], uncovered: new Money(0) });
    await creditWallet(sql, to, { transactionId: inId, cause: 'TERMINATION', idempotencyKey: `${keyPrefix}:in:${lot.id}`, amount: value, spendConditionId: lot.spendConditionId, validFrom: lot.validFrom, validTo: lot.validTo });
  }
  if (owed.gt(0)) {
    // The debt moves: the source is paid off, the target owes it.
    await creditWallet(sql, from, { transactionId: outId, cause: 'TERMINATION', idempotencyKey: `${keyPrefix}:debt-out`, amount: owed });
    await debitWallet(sql, to, { transactionId: inId, cause: 'TERMINATION', idempotencyKey: `${keyPrefix}:debt-in`, amount: owed, consumptions: [], uncovered: owed });
  }
  await recordMoneyChange(sql, actor, { action: 'TRANSFER', entityType: 'wallet', entityId: from.id, changes: { to: to.id, amount: moved.toFixed(), out: outId, in: inId } });
  return moved;
}

const ACCOUNT_BOOK = `SELECT id, contact_id AS "contactId", balance::text AS balance FROM accounts WHERE organisation_id = $1 AND id = ANY ($2::uuid[]) ORDER BY id FOR UPDATE`;

const BOOK_ENTRY = `WITH e AS (
  INSERT INTO ledger_entries (id, organisation_id, transaction_id, account_id, wallet_id, amount, cause, idempotency_key)
  VALUES ($2, $1, $3, $4, NULL, $5::numeric, 'TERMINATION', $6) RETURNING id
)
UPDATE accounts SET balance = balance + $5::numeric, updated_at = now() WHERE organisation_id = $1 AND id = $4 AND EXISTS (SELECT 1 FROM e)`;

/** Moves an account's receivable book to another account's; answers the amount moved. */
export async function transferReceivable(sql: OrgSql, actor: AuditActor, fromId: string, toId: string, keyPrefix: string): Promise<Money> {
  // Both rows locked in id order: two opposite transfers cannot deadlock.
  const rows = await sql.rows<{ id: string; contactId: string; balance: string }>(ACCOUNT_BOOK, [[fromId, toId]]);
  const from = rows.find((r) => r.id === fromId)!;
  const to = rows.find((r) => r.id === toId)!;
  const amount = new Money(from.balance);
  if (amount.isZero()) return amount;
  const [outId, inId] = [newId(), newId()];
  const common = { walletId: null, classification: 'TRANSFER' as const, amount: amount.abs(), transactionDate: nowSeconds(), createdBy: actor.actorId };
  await recordTransaction(sql, { ...common, id: outId, contactId: from.contactId, accountId: fromId, description: `Receivable transferred to account ${toId}`, counterpartId: inId });
  await recordTransaction(sql, { ...common, id: inId, contactId: to.contactId, accountId: toId, description: `Receivable transferred from account ${fromId}`, counterpartId: outId });
  await sql.rows(BOOK_ENTRY, [newId(), outId, fromId, amount.negated().toFixed(), `${keyPrefix}:out`]);
  await sql.rows(BOOK_ENTRY, [newId(), inId, toId, amount.toFixed(), `${keyPrefix}:in`]);
  await recordMoneyChange(sql, actor, { action: 'TRANSFER', entityType: 'account', entityId: fromId, changes: { to: toId, amount: amount.toFixed(), out: outId, in: inId } });
  return amount;
}
