// Wallets of an account (spec 2.3, 4.3): creation, settings, life cycle. Their money is the
// ledger's (src/domain/money/ledger); nothing here writes a balance.
import type { z } from 'zod';
import type { walletCreateBody, walletUpdateBody } from '../../api/wallets/schemas';
import { Prisma, type Tx, type Wallet } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { checkCustomFields } from '../custom-fields/check';
import type { CustomField } from '../custom-fields/values';
import { conflict, found, invalid, notFound } from '../errors';
import { findAccount } from '../accounts/rules';
import { newId, randomDigits } from '../ids';
import { moneyText } from '../money';
import { limitRulesFromInput, limitRulesToJson } from '../money/limit-rules';

export type WalletCreate = z.output<typeof walletCreateBody>;
export type WalletUpdate = z.output<typeof walletUpdateBody>;
export type WalletState = 'EFFECTIVE' | 'SUSPENDED' | 'CANCELLED';

/** EFFECTIVE ⇄ SUSPENDED; either → CANCELLED, which is final (docs/money.md "Wallet life cycle"). */
const MOVES: Record<WalletState, WalletState[]> = { EFFECTIVE: ['SUSPENDED', 'CANCELLED'], SUSPENDED: ['EFFECTIVE', 'CANCELLED'], CANCELLED: [] };

export async function createWallet(tx: Tx, actor: AuditActor, accountId: string, input: WalletCreate): Promise<{ id: string }> {
  await checkCustomFields(txSql(tx, actor.organisationId), 'WALLETS', input.custom_fields);
  const account = await findAccount(tx, actor.organisationId, accountId);
  if (account.lifeCycleState === 'TERMINATED') throw conflict('ACCOUNT_TERMINATED', 'A terminated account gets no new wallet');
  await checkTopupMethod(tx, actor.organisationId, account.contactId, input.auto_topup);
  const id = newId();
  await tx.wallet.create({
    data: {
      id,
      organisationId: actor.organisationId,
      accountId,
      code: input.code ?? (await freeWalletCode(tx)),
      currencyCode: input.currency_code ?? account.currencyCode,
      minimumBalance: input.minimum_balance ?? null,
      limitRules: input.limit_rules ? limitRulesToJson(limitRulesFromInput(input.limit_rules)) : undefined,
      autoTopup: input.auto_topup ? autoTopupJson(input.auto_topup) : undefined,
      customFields: input.custom_fields ?? undefined,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: 'wallet', entityId: id, changes: { account_id: accountId } });
  return { id };
}

export async function updateWallet(tx: Tx, actor: AuditActor, id: string, input: WalletUpdate): Promise<{ id: string }> {
  const wallet = await findWallet(tx, id);
  if (wallet.lifeCycleState === 'CANCELLED') throw conflict('WALLET_CANCELLED', 'A cancelled wallet cannot change');
  if (input.auto_topup?.payment_method_id) {
    const account = await findAccount(tx, actor.organisationId, wallet.accountId);
    await checkTopupMethod(tx, actor.organisationId, account.contactId, input.auto_topup);
  }
  await tx.wallet.update({
    where: { id },
    data: {
      ...(input.minimum_balance !== undefined ? { minimumBalance: input.minimum_balance } : {}),
      ...(input.limit_rules !== undefined ? { limitRules: input.limit_rules === null ? Prisma.DbNull : limitRulesToJson(limitRulesFromInput(input.limit_rules)) } : {}),
      ...(input.auto_topup !== undefined ? { autoTopup: input.auto_topup === null ? Prisma.DbNull : autoTopupJson(input.auto_topup) } : {}),
    },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: 'wallet', entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** POST /wallets/{id}/actions and /cancel. Asking for the state it is in changes nothing. */
export async function moveWallet(tx: Tx, actor: AuditActor, id: string, to: WalletState, customFields?: readonly CustomField[]): Promise<{ id: string }> {
  await checkCustomFields(txSql(tx, actor.organisationId), 'WALLETS', customFields);
  // The row lock orders this move after any journal holding the wallet.
  await tx.$queryRaw`SELECT id FROM wallets WHERE organisation_id = ${actor.organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const wallet = await findWallet(tx, id);
  const from = wallet.lifeCycleState as WalletState;
  if (from === to) return { id };
  if (!MOVES[from].includes(to)) {
    throw conflict('INVALID_STATE_TRANSITION', `A wallet cannot move from ${from} to ${to}`, to === 'CANCELLED' ? undefined : 'action');
  }
  await tx.wallet.update({
    where: { id },
    data: { lifeCycleState: to, ...(to === 'CANCELLED' ? { cancelledAt: new Date(), customFields: (customFields ?? wallet.customFields ?? undefined) as object | undefined } : {}) },
  });
  await audit(tx, actor, { action: to === 'CANCELLED' ? 'CANCEL' : 'MOVE', entityType: 'wallet', entityId: id, changes: { from, to } });
  return { id };
}

export async function findWallet(tx: Tx, id: string): Promise<Wallet> {
  return found(await tx.wallet.findFirst({ where: { id } }), 'Wallet');
}

type AutoTopup = NonNullable<WalletCreate['auto_topup']>;

const METHOD = 'auto_topup.payment_method_id';

/** The top-up charges this method: it must be a live one of the account's contact, never another's id. */
async function checkTopupMethod(tx: Tx, organisationId: string, contactId: string, topup: AutoTopup | null | undefined): Promise<void> {
  if (!topup?.payment_method_id) return;
  const method = await tx.paymentMethod.findFirst({ where: { organisationId, id: topup.payment_method_id, deletedAt: null }, select: { contactId: true } });
  if (!method) throw notFound('Payment method', METHOD);
  if (method.contactId !== contactId) throw invalid(METHOD, `${METHOD}: not a payment method of the account's contact`);
}

function autoTopupJson(a: AutoTopup) {
  return { threshold: moneyText(a.threshold), amount: moneyText(a.amount), payment_method: a.payment_method, payment_method_id: a.payment_method_id ?? null };
}

/** A wallet's code (spec 2.3): 16 digits, unique in the organisation. */
export const newWalletCode = () => randomDigits(16);

/** A code not yet used in the organisation (the unique index still decides a race). */
async function freeWalletCode(tx: Tx): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const code = newWalletCode();
    if (!(await tx.wallet.findFirst({ where: { code }, select: { id: true } }))) return code;
  }
  throw new Error('No free wallet code found after 10 attempts');
}

