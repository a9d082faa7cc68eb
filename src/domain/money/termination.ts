// The steps of account termination (docs/money.md "Account termination"), each one transaction
// run by an activity of the account-termination workflow. Each is safe to repeat: a step
// re-reads under its locks what is left to do, and its entries carry keys from the source.
import type { Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import type { AuditActor } from '../audit';
import { conflict, invalid, notFound } from '../errors';
import { newId } from '../ids';
import { transferReceivable, transferWallet } from './ledger/transfer';
import { recordMoneyChange } from './ledger/record';
import { lockWallet } from './ledger/wallet';
import { newWalletCode } from '../wallets/wallets';
import { recordIntent } from '../../temporal/intents';
import { terminationWorkflowId, type TerminationInput } from '../../workflows/contracts';

export interface TerminationPlan {
  /** Terminated into this target already: nothing to do. */
  done: boolean;
  walletIds: string[];
}

/** The refusals of spec 4.2 / the issue: checked before the workflow starts and again inside it. */
export async function planTermination(tx: Tx, accountId: string, targetId: string | undefined): Promise<TerminationPlan> {
  // The client is scoped to the organisation (src/db/tenancy.ts): an id of another is not found.
  const account = await tx.account.findFirst({ where: { id: accountId } });
  if (!account) throw notFound('Account');
  if (!targetId) throw invalid('transfer_to_account_id', 'Terminating an account needs transfer_to_account_id: its balances move there');
  if (account.lifeCycleState === 'TERMINATED') {
    if (account.terminatedToAccountId === targetId) return { done: true, walletIds: [] };
    throw conflict('ACCOUNT_TERMINATED', 'The account is already terminated', 'life_cycle_state');
  }
  if (targetId === accountId) throw invalid('transfer_to_account_id', 'An account cannot transfer to itself');
  const target = await tx.account.findFirst({ where: { id: targetId } });
  if (!target) throw invalid('transfer_to_account_id', 'No such account in this organisation');
  if (target.lifeCycleState === 'TERMINATED') throw invalid('transfer_to_account_id', 'The target account is terminated');
  // No exchange rates exist between currencies (docs/money.md): only like moves to like.
  if (target.currencyCode !== account.currencyCode) throw invalid('transfer_to_account_id', `The target account is in ${target.currencyCode}, this one in ${account.currencyCode}; no rate converts them`);
  const wallets = await tx.wallet.findMany({ where: { accountId, lifeCycleState: { not: 'CANCELLED' } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } });
  return { done: false, walletIds: wallets.map((w) => w.id) };
}

/**
 * In the request's transaction, before its intent: commits the account to this target. The
 * UPDATE's row lock makes parallel requests wait for each other, and the one that comes second
 * sees the first one's target: naming another is 409 TERMINATION_IN_PROGRESS, so parallel
 * requests to two targets cannot all be told yes while one target gets the money. A
 * target that can no longer be reached (terminated since, gone) frees the account for another.
 * Answers false when the account was terminated into this target meanwhile (nothing to start).
 */
const CLAIM = `UPDATE accounts a SET terminating_to_account_id = $3::uuid, updated_at = now()
WHERE a.organisation_id = $1 AND a.id = $2::uuid AND a.life_cycle_state <> 'TERMINATED'
  AND (a.terminating_to_account_id IS NULL OR a.terminating_to_account_id = $3::uuid
       OR NOT EXISTS (SELECT 1 FROM accounts t WHERE t.organisation_id = $1 AND t.id = a.terminating_to_account_id AND t.life_cycle_state <> 'TERMINATED'))
RETURNING a.id`;
const CLAIMED = `SELECT life_cycle_state, terminated_to_account_id, terminating_to_account_id FROM accounts WHERE organisation_id = $1 AND id = $2::uuid`;

/**
 * The request's part, in its transaction: the account is claimed for the target, and the
 * account-termination workflow's intent recorded with the claim. False when the account was
 * terminated into this target already (nothing to start).
 */
export async function requestTermination(
  sql: OrgSql, organisationId: string, accountId: string, targetId: string, requester: TerminationInput['actor'],
): Promise<boolean> {
  if (!(await claimTermination(sql, accountId, targetId))) return false;
  await recordIntent(sql, {
    kind: 'start', workflow: 'accountTerminationWorkflow', workflowId: terminationWorkflowId(accountId),
    input: { organisationId, accountId, targetAccountId: targetId, actor: requester },
    search: { entityType: 'ACCOUNTS', entityId: accountId },
  });
  return true;
}

async function claimTermination(sql: OrgSql, accountId: string, targetId: string): Promise<boolean> {
  if ((await sql.rows(CLAIM, [accountId, targetId])).length) return true;
  const [account] = await sql.rows<{ life_cycle_state: string; terminated_to_account_id: string | null; terminating_to_account_id: string | null }>(CLAIMED, [accountId]);
  if (!account) throw notFound('Account');
  if (account.life_cycle_state === 'TERMINATED') {
    if (account.terminated_to_account_id === targetId) return false;
    throw conflict('ACCOUNT_TERMINATED', 'The account is already terminated', 'life_cycle_state');
  }
  throw conflict('TERMINATION_IN_PROGRESS', `transfer_to_account_id: the account is being terminated into account ${account.terminating_to_account_id}`, 'transfer_to_account_id');
}

const REQUESTED = `SELECT 1 AS requested FROM accounts WHERE organisation_id = $1 AND id = $2::uuid
  AND (terminating_to_account_id = $3::uuid OR (life_cycle_state = 'TERMINATED' AND terminated_to_account_id = $3::uuid))`;

/**
 * Whether the API committed a termination of this account into this target (its claim above,
 * made in the transaction that recorded the workflow's intent). A start of the workflow that did
 * not come from the API (anyone reaching a Temporal frontend) finds none and moves nothing.
 */
export async function terminationRequested(sql: OrgSql, accountId: string, targetId: string): Promise<boolean> {
  return (await sql.rows(REQUESTED, [accountId, targetId])).length > 0;
}

export async function moveReceivable(sql: OrgSql, actor: AuditActor, accountId: string, targetId: string): Promise<string> {
  return (await transferReceivable(sql, actor, accountId, targetId, `termination:${accountId}:account`)).toFixed();
}

const TARGET_ACCOUNT = `SELECT id FROM accounts WHERE organisation_id = $1 AND id = $2::uuid FOR UPDATE`;
const TARGET_WALLET = `SELECT id FROM wallets WHERE organisation_id = $1 AND account_id = $2::uuid AND currency_code = $3 AND life_cycle_state <> 'CANCELLED'
ORDER BY created_at, id LIMIT 1`;
const NEW_WALLET = `INSERT INTO wallets (id, organisation_id, account_id, code, currency_code, updated_at)
VALUES ($2, $1, $3, $4, $5, now())`;
const CANCEL = `UPDATE wallets SET life_cycle_state = 'CANCELLED', cancelled_at = now(), updated_at = now() WHERE organisation_id = $1 AND id = $2::uuid`;

/** Moves one wallet of the account into the target's wallet of its currency (made when missing), then cancels it. */
export async function moveWallet(sql: OrgSql, actor: AuditActor, accountId: string, walletId: string, targetAccountId: string): Promise<string> {
  const from = await lockWallet(sql, walletId);
  if (from.accountId !== accountId) throw invalid('wallet_id', `Wallet ${walletId} is not a wallet of account ${accountId}`);
  if (from.lifeCycleState === 'CANCELLED') return '0';
  // The target account's row serialises the "find or make its wallet" of concurrent steps.
  await sql.rows(TARGET_ACCOUNT, [targetAccountId]);
  let [target] = await sql.rows<{ id: string }>(TARGET_WALLET, [targetAccountId, from.currencyCode]);
  if (!target) {
    target = { id: newId() };
    // A code clash fails the step, and its retry draws another.
    await sql.rows(NEW_WALLET, [target.id, targetAccountId, newWalletCode(), from.currencyCode]);
  }
  const to = await lockWallet(sql, target.id);
  const moved = await transferWallet(sql, actor, from, to, `termination:${walletId}`);
  await sql.rows(CANCEL, [walletId]);
  return moved.toFixed();
}

const MARK = `UPDATE accounts SET life_cycle_state = 'TERMINATED', terminated_to_account_id = $3::uuid, terminated_at = now(), updated_at = now()
WHERE organisation_id = $1 AND id = $2::uuid AND life_cycle_state <> 'TERMINATED' RETURNING id`;

export async function markTerminated(sql: OrgSql, actor: AuditActor, accountId: string, targetId: string): Promise<void> {
  const changed = await sql.rows(MARK, [accountId, targetId]);
  if (changed.length) await recordMoneyChange(sql, actor, { action: 'TERMINATE', entityType: 'account', entityId: accountId, changes: { transfer_to_account_id: targetId } });
}

