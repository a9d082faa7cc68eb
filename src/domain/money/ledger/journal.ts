// POST /journals (spec 2.5): one credit or debit of one wallet, as a wallet transaction with one
// entry. The rules are docs/money.md "Refusals".
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { conflict, invalid } from '../../errors';
import { newId } from '../../ids';
import { Money, moneyText } from '../../money';
import type { Settings } from '../settings';
import { creditWallet, debitWallet } from './entries';
import { checkLimits } from './limits';
import { allocate } from './lots';
import { topUpIfLow } from './topup';
import { lockWallet, type LockedWallet } from './wallet';
import { nowSeconds } from '../../clock';

export interface JournalInput {
  wallet_id: string;
  amount: Money;
  type: 'CREDIT' | 'DEBIT';
  description?: string;
  spend_condition_id?: string;
  valid_from?: number;
  valid_to?: number;
  created_on?: number;
  allow_negative_balance?: boolean;
}

export interface MoneyContext {
  sql: OrgSql;
  actor: AuditActor;
  /** Loaded on demand (the wallet's lock reads the minimum balance and limit rules itself). */
  settings: () => Promise<Settings>;
}

const SPEND_CONDITION = 'SELECT 1 AS found FROM spend_conditions WHERE organisation_id = $1 AND id = $2::uuid';

export async function postJournal(m: MoneyContext, input: JournalInput, now = nowSeconds()): Promise<{ id: string }> {
  const wallet = await lockWallet(m.sql, input.wallet_id, 'wallet_id');
  assertWritable(wallet, input.type);
  if (input.spend_condition_id && !(await m.sql.rows(SPEND_CONDITION, [input.spend_condition_id])).length) {
    throw invalid('spend_condition_id', 'No such spend condition in this organisation');
  }
  const id = newId();
  const at = input.created_on === undefined ? now : new Date(input.created_on * 1000);
  const base = { id, contactId: wallet.contactId, accountId: wallet.accountId, walletId: wallet.id, amount: input.amount, description: input.description ?? null, spendConditionId: input.spend_condition_id ?? null, transactionDate: at, createdBy: m.actor.actorId };
  const key = `journal:${id}`;
  // The audit row and the event ride with the entry's statement.
  const recorded = {
    actor: m.actor,
    records: [{
      change: { action: input.type, entityType: 'wallet_transaction', entityId: id, changes: { wallet_id: wallet.id, amount: moneyText(input.amount) } },
      event: { type: 'WALLET_TRANSACTION_POSTED' as const, payload: { transaction_id: id, wallet_id: wallet.id, contact_id: wallet.contactId, classification: input.type, amount: moneyText(input.amount), currency_code: wallet.currencyCode } },
    }],
  };
  if (input.type === 'CREDIT') {
    const validFrom = input.valid_from === undefined ? null : new Date(input.valid_from * 1000);
    const validTo = input.valid_to === undefined ? null : new Date(input.valid_to * 1000);
    if (validFrom && validTo && validTo <= validFrom) throw invalid('valid_to', 'valid_to must be after valid_from');
    await creditWallet(
      m.sql, wallet,
      { transactionId: id, cause: 'JOURNAL', idempotencyKey: key, amount: input.amount, spendConditionId: input.spend_condition_id, validFrom, validTo },
      { ...base, classification: 'CREDIT', expirationDate: validTo },
      recorded,
    );
  } else {
    if (input.valid_from !== undefined || input.valid_to !== undefined) {
      throw invalid(input.valid_from !== undefined ? 'valid_from' : 'valid_to', 'Only a credit has a validity window');
    }
    await checkLimits(m.sql, wallet.id, wallet.limitRules, 'DEBIT', input.amount, now);
    const allocation = await allocate(m.sql, wallet.id, input.amount, input.spend_condition_id ?? null, now);
    const minimum = wallet.minimumBalance;
    // What this debit may spend: the lots it is allowed to take, less what the wallet already owes.
    const after = allocation.available.minus(wallet.uncovered).minus(input.amount);
    if (after.lt(minimum) && !input.allow_negative_balance) {
      throw conflict('INSUFFICIENT_BALANCE', `The debit needs ${moneyText(input.amount)}; ${moneyText(allocation.available.minus(wallet.uncovered))} is available above the minimum balance of ${moneyText(minimum)}`, 'amount');
    }
    await debitWallet(
      m.sql, wallet,
      { transactionId: id, cause: 'JOURNAL', idempotencyKey: key, amount: input.amount, consumptions: allocation.consumptions, uncovered: allocation.shortfall },
      { ...base, classification: 'DEBIT' },
      recorded,
    );
    await topUpIfLow(m.sql, m.actor.organisationId, id, wallet);
  }
  return { id };
}

/** A cancelled wallet takes nothing; a suspended one, or one of a suspended account, takes credits only. */
export function assertWritable(wallet: LockedWallet, type: 'CREDIT' | 'DEBIT'): void {
  if (wallet.lifeCycleState === 'CANCELLED') throw conflict('WALLET_CANCELLED', 'The wallet is cancelled', 'wallet_id');
  if (wallet.accountState === 'TERMINATED') throw conflict('ACCOUNT_TERMINATED', "The wallet's account is terminated", 'wallet_id');
  if (type === 'DEBIT' && wallet.lifeCycleState === 'SUSPENDED') throw conflict('WALLET_SUSPENDED', 'The wallet is suspended: it accepts credits only', 'wallet_id');
  if (type === 'DEBIT' && wallet.accountState === 'SUSPENDED') throw conflict('ACCOUNT_SUSPENDED', "The wallet's account is suspended: it accepts credits only", 'wallet_id');
}
