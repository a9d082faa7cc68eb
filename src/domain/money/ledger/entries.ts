// The three writes every movement of money is made of (docs/money.md): a transaction row, then
// per book a credit (a new lot) or a debit (consuming lots). Each is one statement; the
// wallet's cached balance changes in the statement that writes its entry. A movement's last
// entry statement may also write the movement's audit rows and events (`Recorded`).
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { recordParams, withRecords } from '../../events/record';
import { newId } from '../../ids';
import { Money, moneyText } from '../../money';
import type { MoneyRecord } from './record';
import type { LockedWallet } from './wallet';

export type Classification = 'CREDIT' | 'DEBIT' | 'TRANSFER' | 'VOID' | 'EXPIRY' | 'TOPUP' | 'AWARD' | 'SPEND' | 'RETURN';
export type Cause = 'JOURNAL' | 'TRANSFER' | 'VOID' | 'EXPIRY' | 'TOPUP' | 'TERMINATION' | 'AWARD' | 'SPEND' | 'RETURN';

export interface NewTransaction {
  id: string;
  contactId: string;
  accountId: string;
  walletId: string | null;
  classification: Classification;
  amount: Money;
  description?: string | null;
  spendConditionId?: string | null;
  transactionDate: Date;
  expirationDate?: Date | null;
  createdBy: string;
  /** The purchase that caused it, and for an award its offer (docs/loyalty.md). */
  purchaseId?: string | null;
  rewardOfferId?: string | null;
  /** A transfer's other side. */
  counterpartId?: string | null;
}

const INSERT_TRANSACTION = `INSERT INTO wallet_transactions (id, organisation_id, contact_id, account_id, wallet_id, classification,
  amount, description, spend_condition_id, transaction_date, expiration_date, created_by, purchase_id, reward_offer_id, counterpart_id)
VALUES ($2, $1, $3, $4, $5, $6, $7::numeric, $8, $9, $10, $11, $12, $13, $14, $15)`;

const transactionParams = (t: NewTransaction) => [
  t.id, t.contactId, t.accountId, t.walletId, t.classification, moneyText(t.amount), t.description ?? null,
  t.spendConditionId ?? null, t.transactionDate, t.expirationDate ?? null, t.createdBy, t.purchaseId ?? null, t.rewardOfferId ?? null, t.counterpartId ?? null,
];

export async function recordTransaction(sql: OrgSql, t: NewTransaction): Promise<void> {
  await sql.rows(INSERT_TRANSACTION, transactionParams(t));
}

/**
 * An entry statement that also writes its transaction row (one round trip for a movement with
 * one entry: a journal, a purchase's spend or award). The row's parameters follow the entry's
 * `used` ones; the foreign key is checked at the end of the statement, when both rows exist.
 */
function withTransaction(entry: string, used: number): string {
  const row = INSERT_TRANSACTION.replace(/\$(\d+)/g, (_, n: string) => (n === '1' ? '$1' : `$${Number(n) + used - 1}`));
  return entry.replace('WITH e AS (', `WITH t AS (${row}), e AS (`);
}

/** The audit rows and events an entry statement writes along (src/domain/events/record.ts). */
export interface Recorded {
  actor: AuditActor;
  records: MoneyRecord[];
}

/** The transaction row's own parameters ($2 on; $1 is the organisation). */
const TRANSACTION_PARAMS = new Set(INSERT_TRANSACTION.match(/\$\d+/g)).size - 1;

/**
 * An entry statement (its own parameters ending at $used) with its transaction row and its
 * records, as asked. The four texts are built once: prepared statements are named by text.
 */
function variants(entry: string, used: number): (transaction: boolean, recorded: boolean) => string {
  const tx = withTransaction(entry, used);
  const texts = { plain: entry, tx, recorded: withRecords(entry, used), txRecorded: withRecords(tx, used + TRANSACTION_PARAMS) };
  return (transaction, recorded) => (transaction ? (recorded ? texts.txRecorded : texts.tx) : recorded ? texts.recorded : texts.plain);
}

/** The parameters after an entry's own: its transaction row's, then its records'. */
function extraParams(transaction: NewTransaction | undefined, recorded: Recorded | undefined): unknown[] {
  return [...(transaction ? transactionParams(transaction) : []), ...(recorded ? recordParams(recorded.actor, recorded.records) : [])];
}

export interface EntryCommon {
  transactionId: string;
  cause: Cause;
  /** Unique per wallet: the same effect written twice fails (docs/money.md). */
  idempotencyKey: string;
  compensatesEntryId?: string | null;
}

export interface NewCredit extends EntryCommon {
  amount: Money;
  spendConditionId?: string | null;
  validFrom?: Date | null;
  validTo?: Date | null;
}

// The entry, its lot (less what pays debts the wallet still owes), and the cached balance.
const CREDIT = `WITH e AS (
  INSERT INTO ledger_entries (id, organisation_id, transaction_id, account_id, wallet_id, amount, cause, idempotency_key,
    compensates_entry_id, spend_condition_id, valid_from, valid_to)
  VALUES ($2, $1, $3, $4, $5, $6::numeric, $7, $8, $9, $10, $11, $12) RETURNING id
), l AS (
  INSERT INTO lots (entry_id, organisation_id, wallet_id, spend_condition_id, valid_from, valid_to, amount, covered, remaining)
  SELECT e.id, $1, $5, $10, $11, $12, $6::numeric, $13::numeric, $6::numeric - $13::numeric FROM e RETURNING entry_id
)
UPDATE wallets SET balance = balance + $6::numeric, uncovered = uncovered - $13::numeric, updated_at = now()
WHERE organisation_id = $1 AND id = $5 AND EXISTS (SELECT 1 FROM l)`;

const CREDIT_TEXT = variants(CREDIT, 13);

/** Credits the locked wallet; returns the entry id. A credit first pays what the wallet owes. */
export async function creditWallet(sql: OrgSql, wallet: LockedWallet, c: NewCredit, transaction?: NewTransaction, recorded?: Recorded): Promise<string> {
  const id = newId();
  const covered = Money.min(c.amount, wallet.uncovered);
  const params = [
    id, c.transactionId, wallet.accountId, wallet.id, moneyText(c.amount), c.cause, c.idempotencyKey, c.compensatesEntryId ?? null,
    c.spendConditionId ?? null, c.validFrom ?? null, c.validTo ?? null, moneyText(covered),
  ];
  await sql.rows(CREDIT_TEXT(!!transaction, !!recorded), [...params, ...extraParams(transaction, recorded)]);
  wallet.balance = wallet.balance.plus(c.amount);
  wallet.uncovered = wallet.uncovered.minus(covered);
  return id;
}

export interface Consumption {
  lotEntryId: string;
  amount: Money;
}

export interface NewDebit extends EntryCommon {
  amount: Money;
  consumptions: Consumption[];
  /** The part no lot covers (allowed below zero). */
  uncovered: Money;
}

// The entry, what it took from each lot, the lots' remainders, and the cached balance.
const DEBIT = `WITH e AS (
  INSERT INTO ledger_entries (id, organisation_id, transaction_id, account_id, wallet_id, amount, uncovered, cause, idempotency_key, compensates_entry_id)
  VALUES ($2, $1, $3, $4, $5, -$6::numeric, $7::numeric, $8, $9, $10) RETURNING id
), c AS (
  INSERT INTO lot_consumptions (id, organisation_id, debit_entry_id, lot_entry_id, amount)
  SELECT x.id, $1, e.id, x.lot, x.amount FROM e, unnest($11::uuid[], $12::uuid[], $13::numeric[]) AS x(id, lot, amount)
  RETURNING lot_entry_id, amount
), u AS (
  UPDATE lots SET remaining = lots.remaining - c.amount FROM c WHERE lots.organisation_id = $1 AND lots.entry_id = c.lot_entry_id RETURNING 1
)
UPDATE wallets SET balance = balance - $6::numeric, uncovered = uncovered + $7::numeric, updated_at = now()
WHERE organisation_id = $1 AND id = $5 AND EXISTS (SELECT 1 FROM e)`;

const DEBIT_TEXT = variants(DEBIT, 13);

/** Debits the locked wallet (with its transaction row when given); returns the entry id. */
export async function debitWallet(sql: OrgSql, wallet: LockedWallet, d: NewDebit, transaction?: NewTransaction, recorded?: Recorded): Promise<string> {
  const id = newId();
  const params = [
    id, d.transactionId, wallet.accountId, wallet.id, moneyText(d.amount), moneyText(d.uncovered), d.cause, d.idempotencyKey,
    d.compensatesEntryId ?? null, d.consumptions.map(() => newId()), d.consumptions.map((c) => c.lotEntryId), d.consumptions.map((c) => moneyText(c.amount)),
  ];
  await sql.rows(DEBIT_TEXT(!!transaction, !!recorded), [...params, ...extraParams(transaction, recorded)]);
  wallet.balance = wallet.balance.minus(d.amount);
  wallet.uncovered = wallet.uncovered.plus(d.uncovered);
  return id;
}
