// Auto top-up (spec 2.3 auto_topup; docs/money.md "Auto top-up"): a debit that leaves the
// wallet under its threshold starts the top-up workflow `wallet-topup:<debit transaction id>`
// before the debit commits; the workflow charges the payment method through the gateway and,
// when the charge succeeds, credits the wallet with the key topup:<debit transaction id>.
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { newId } from '../../ids';
import { Money } from '../../money';
import { creditWallet, recordTransaction } from './entries';
import { recordMoneyChange } from './record';
import { lockWallet, type LockedWallet } from './wallet';
import { recordIntent } from '../../../temporal/intents';
import { topupWorkflowId } from '../../../workflows/contracts';
import { nowSeconds } from '../../clock';
import { invalid } from '../../errors';

export interface AutoTopup {
  threshold: Money;
  amount: Money;
  paymentMethod: string;
  paymentMethodId: string | null;
}

export function autoTopupOf(json: unknown): AutoTopup | null {
  if (!json || typeof json !== 'object') return null;
  const a = json as { threshold: string; amount: string; payment_method: string; payment_method_id: string | null };
  return { threshold: new Money(a.threshold), amount: new Money(a.amount), paymentMethod: a.payment_method, paymentMethodId: a.payment_method_id ?? null };
}

const CAUSE = `SELECT t.wallet_id AS "walletId", w.auto_topup AS "autoTopup", w.balance::text AS balance, w.life_cycle_state AS "state", w.currency_code AS "currencyCode"
FROM wallet_transactions t JOIN wallets w ON w.id = t.wallet_id AND w.organisation_id = t.organisation_id
WHERE t.organisation_id = $1 AND t.id = $2::uuid`;

/** The wallet's currency overrides the workflow input's, which a forged start could name. */
export type TopupPlan = { walletId: string; amount: string; currencyCode: string; paymentMethod: string; paymentMethodId: string | null } | null;

/**
 * After a debit, in its transaction: a wallet it left under its threshold asks for its top-up.
 * The workflow starts once the debit committed, and never without it.
 */
export async function topUpIfLow(sql: OrgSql, organisationId: string, debitId: string, wallet: LockedWallet): Promise<void> {
  const topup = autoTopupOf(wallet.autoTopup);
  if (!topup || !wallet.balance.lt(topup.threshold)) return;
  await recordIntent(sql, {
    kind: 'start', workflow: 'walletTopupWorkflow', workflowId: topupWorkflowId(debitId),
    input: { organisationId, causeId: debitId, currencyCode: wallet.currencyCode }, search: { entityType: 'WALLETS', entityId: wallet.id },
  });
}

/**
 * What the top-up caused by this debit should charge, or null: the debit is not there (its
 * intent commits with it, so only a top-up of a debit since voided or purged), the wallet has no
 * auto top-up any more, is cancelled, or is no longer under the threshold.
 */
export async function planTopup(sql: OrgSql, causeId: string): Promise<TopupPlan | null> {
  const [row] = await sql.rows<{ walletId: string; autoTopup: unknown; balance: string; state: string; currencyCode: string }>(CAUSE, [causeId]);
  if (!row) return null;
  const config = autoTopupOf(row.autoTopup);
  if (!config || row.state === 'CANCELLED' || !new Money(row.balance).lt(config.threshold)) return null;
  return { walletId: row.walletId, amount: config.amount.toFixed(), currencyCode: row.currencyCode, paymentMethod: config.paymentMethod, paymentMethodId: config.paymentMethodId };
}

const DONE = `SELECT 1 AS done FROM ledger_entries WHERE organisation_id = $1 AND wallet_id = $2::uuid AND idempotency_key = $3`;

/** Credits the charged amount once per causing debit. */
export async function creditTopup(sql: OrgSql, actor: AuditActor, causeId: string, walletId: string, amount: Money, chargeId: string): Promise<void> {
  const [cause] = await sql.rows<{ walletId: string }>(CAUSE, [causeId]);
  // Only the wallet the debit left under its threshold.
  if (cause?.walletId !== walletId) throw invalid('wallet_id', `Wallet ${walletId} is not the wallet of debit ${causeId}`);
  const wallet = await lockWallet(sql, walletId);
  const key = `topup:${causeId}`;
  if ((await sql.rows(DONE, [walletId, key])).length) return;
  const id = newId();
  await recordTransaction(sql, {
    id, contactId: wallet.contactId, accountId: wallet.accountId, walletId, classification: 'TOPUP', amount,
    description: `Auto top-up (charge ${chargeId})`, transactionDate: nowSeconds(), createdBy: actor.actorId,
  });
  await creditWallet(sql, wallet, { transactionId: id, cause: 'TOPUP', idempotencyKey: key, amount });
  await recordMoneyChange(
    sql, actor,
    { action: 'TOPUP', entityType: 'wallet_transaction', entityId: id, changes: { cause: causeId, charge: chargeId, amount: amount.toFixed() } },
    { type: 'WALLET_TRANSACTION_POSTED', payload: { transaction_id: id, wallet_id: walletId, contact_id: wallet.contactId, classification: 'TOPUP', amount: amount.toFixed(), currency_code: wallet.currencyCode } },
  );
}
