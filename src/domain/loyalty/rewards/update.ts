// PUT /accounts/{id}/rewards (spec 2.6 write): partial. Every check passes before the
// account_rewards row is written, and the pipeline's transaction keeps a refusal from leaving
// half a change behind (docs/rewards.md "Reward attributes").
import type { AccountReward, Prisma, Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { invalid, notFound } from '../../errors';
import { ensureRewardRow, lockPrimaryAccount, REWARDS_ENTITY } from './account';
import type { AutoSpendInput, RewardsUpdateInput } from './types';
import { nowSeconds } from '../../clock';

/** Direct debit is a BANK payment method; online gateway accounts cannot be charged unattended this way. */
export const PREFERRED_PAYMENT_TYPES = ['CARD', 'BANK'];

export async function updateRewards(tx: Tx, actor: AuditActor, id: string, input: RewardsUpdateInput, now = nowSeconds()): Promise<{ id: string }> {
  const { organisationId } = actor;
  const account = await lockPrimaryAccount(tx, organisationId, id);
  const current = await tx.accountReward.findFirst({ where: { organisationId, accountId: id } });

  const data: Prisma.AccountRewardUncheckedUpdateInput = {};
  if (input.signed_up_on !== undefined) data.signedUpOn = input.signed_up_on === null ? null : new Date(input.signed_up_on * 1000);
  if (input.signed_up_organisation_id !== undefined) {
    data.signedUpOrganisationId = input.signed_up_organisation_id && (await signUpOrganisation(tx, organisationId, input.signed_up_organisation_id));
  }
  if (input.spending_blocked_status === true && !current?.spendingBlocked) {
    // Blocking an account already blocked keeps the first block's date and author.
    Object.assign(data, { spendingBlocked: true, spendingBlockedAt: now, spendingBlockedBy: actor.actorId });
  } else if (input.spending_blocked_status === false) {
    Object.assign(data, { spendingBlocked: false, spendingBlockedAt: null, spendingBlockedBy: null });
  }
  if (input.automatic_spend_settings) Object.assign(data, autoSpend(input.automatic_spend_settings, current));
  if (input.preferred_payment_method_id !== undefined) {
    data.preferredPaymentMethodId =
      input.preferred_payment_method_id && (await preferredPaymentMethod(tx, organisationId, account.contactId, input.preferred_payment_method_id));
  }

  await ensureRewardRow(tx, organisationId, id);
  if (Object.keys(data).length) await tx.accountReward.update({ where: { accountId: id }, data });
  await audit(tx, actor, {
    action: 'UPDATE', entityType: REWARDS_ENTITY, entityId: id,
    changes: { fields: Object.keys(input), ...(input.spending_blocked_status !== undefined ? { spending_blocked_status: input.spending_blocked_status } : {}) },
  });
  return { id };
}

/** The organisation itself or one of its units; anything else (another tenant's unit) is unknown here. */
async function signUpOrganisation(tx: Tx, organisationId: string, id: string): Promise<string> {
  if (id === organisationId) return id;
  const unit = await tx.networkUnit.findFirst({ where: { organisationId, id }, select: { id: true } });
  if (!unit) throw notFound('Organisation', 'signed_up_organisation_id');
  return unit.id;
}

const ATTRIBUTE = 'preferred_payment_method_id';

async function preferredPaymentMethod(tx: Tx, organisationId: string, contactId: string, id: string): Promise<string> {
  const method = await tx.paymentMethod.findFirst({ where: { organisationId, id, deletedAt: null }, select: { id: true, contactId: true, type: true } });
  if (!method) throw notFound('Payment method', ATTRIBUTE);
  if (method.contactId !== contactId) throw invalid(ATTRIBUTE, `${ATTRIBUTE}: not a payment method of the account's contact`);
  if (!PREFERRED_PAYMENT_TYPES.includes(method.type)) {
    throw invalid(ATTRIBUTE, `${ATTRIBUTE}: must be a card (CARD) or direct debit (BANK) payment method, not ${method.type}`);
  }
  return method.id;
}

/** A field given changes; automatic spend cannot be enabled without saying how it spends. */
function autoSpend(input: AutoSpendInput, current: AccountReward | null): Prisma.AccountRewardUncheckedUpdateInput {
  const data: Prisma.AccountRewardUncheckedUpdateInput = {};
  if (input.enable_automatic_spend !== undefined) data.autoSpendEnabled = input.enable_automatic_spend;
  if (input.automatic_spend_preference !== undefined) data.autoSpendPreference = input.automatic_spend_preference;
  if (input.minimum_wallet_balance !== undefined) data.autoSpendMinimumBalance = input.minimum_wallet_balance;
  if (input.from_purchase_amount !== undefined) data.autoSpendFromAmount = input.from_purchase_amount;
  const enabled = input.enable_automatic_spend ?? current?.autoSpendEnabled ?? false;
  const preference = input.automatic_spend_preference !== undefined ? input.automatic_spend_preference : (current?.autoSpendPreference ?? null);
  if (enabled && preference === null) {
    throw invalid('automatic_spend_settings.automatic_spend_preference', 'automatic_spend_preference is required while automatic spend is enabled');
  }
  return data;
}
