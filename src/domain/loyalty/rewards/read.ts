// GET /accounts/{id}/rewards (spec 2.6 read): the account_rewards row (defaults without one),
// whom it names, the allowed merchants, the schemes joined and the tier reached now
// (docs/rewards.md "Reading").
import type { Account, AccountReward, PaymentMethod, RewardTier, Tx } from '../../../db/client';
import { isId } from '../../ids';
import { Money } from '../../money';
import { currentPeriodUnits, tierProgress } from '../tiers';
import { primaryAccount } from './account';
import { nowSeconds } from '../../clock';

export interface IdName {
  id: string;
  name: string;
}

export interface BlockedBy {
  id: string;
  emailAddress: string | null;
  firstName: string | null;
  lastName: string | null;
}

export interface TierView {
  tier: RewardTier | null;
  periodUnits: Money;
  lifetimeUnits: Money;
  progression: number;
}

export interface RewardsView {
  account: Account;
  reward: AccountReward | null;
  signUpOrganisation: IdName | null;
  blockedBy: BlockedBy | null;
  allowedMerchants: Array<IdName & { isNextVisit: boolean }>;
  /** null when the organisation has no tiers. */
  tier: TierView | null;
  schemes: Array<IdName & { signedUpOn: Date; emailAddress: string | null; signUpOption: string }>;
  paymentMethod: PaymentMethod | null;
}

export async function readRewards(db: Tx, organisationId: string, id: string, now = nowSeconds()): Promise<RewardsView> {
  const account = await primaryAccount(db, organisationId, id);
  const [reward, merchants, schemes, tiers] = await Promise.all([
    db.accountReward.findFirst({ where: { organisationId, accountId: id } }),
    db.accountMerchant.findMany({
      where: { organisationId, accountId: id },
      orderBy: [{ createdAt: 'asc' }, { unitId: 'asc' }],
      select: { isNextVisit: true, unit: { select: { id: true, name: true } } },
    }),
    db.accountRewardScheme.findMany({
      where: { organisationId, accountId: id, endedOn: null },
      orderBy: [{ signedUpOn: 'asc' }, { schemeId: 'asc' }],
      select: { signedUpOn: true, emailAddress: true, scheme: { select: { id: true, name: true, signUpOption: true } } },
    }),
    db.rewardTier.findMany({ where: { organisationId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
  ]);
  const [signUpOrganisation, blockedBy, paymentMethod] = await Promise.all([
    organisationOrUnit(db, organisationId, reward?.signedUpOrganisationId ?? null),
    blocker(db, organisationId, reward),
    reward?.preferredPaymentMethodId
      ? db.paymentMethod.findFirst({ where: { organisationId, id: reward.preferredPaymentMethodId, deletedAt: null } })
      : null,
  ]);
  return {
    account,
    reward,
    signUpOrganisation,
    blockedBy,
    allowedMerchants: merchants.map((m) => ({ id: m.unit.id, name: m.unit.name, isNextVisit: m.isNextVisit })),
    tier: tiers.length ? tierOf(tiers, reward, now) : null,
    schemes: schemes.map((s) => ({ id: s.scheme.id, name: s.scheme.name, signUpOption: s.scheme.signUpOption, signedUpOn: s.signedUpOn, emailAddress: s.emailAddress })),
    paymentMethod,
  };
}

/** The tier reached now, from the account's own value units; the stored period units count only in their own year. */
function tierOf(tiers: RewardTier[], reward: AccountReward | null, now: Date): TierView {
  const lifetimeUnits = reward?.lifetimeValueUnits ?? new Money(0);
  const periodUnits = reward ? currentPeriodUnits(reward.periodYear, reward.periodValueUnits, now) : new Money(0);
  const { tier, progression } = tierProgress(tiers, periodUnits, lifetimeUnits);
  return { tier, periodUnits, lifetimeUnits, progression };
}

/** The tenant itself (its name from organisations) or one of its units; null once the unit is gone. */
async function organisationOrUnit(db: Tx, organisationId: string, id: string | null): Promise<IdName | null> {
  if (id === null) return null;
  if (id === organisationId) {
    const [org] = await db.$queryRaw<IdName[]>`SELECT id::text AS id, name FROM organisations WHERE id = ${organisationId}::uuid`;
    return org ?? null;
  }
  return db.networkUnit.findFirst({ where: { organisationId, id }, select: { id: true, name: true } });
}

/** The user who blocked spending, with their details; an API key shows its id alone. */
async function blocker(db: Tx, organisationId: string, reward: AccountReward | null): Promise<BlockedBy | null> {
  if (!reward?.spendingBlocked || !reward.spendingBlockedBy) return null;
  const id = reward.spendingBlockedBy;
  const user = isId(id)
    ? await db.user.findFirst({ where: { organisationId, id }, select: { id: true, email: true, firstName: true, lastName: true } })
    : null;
  if (!user) return { id, emailAddress: null, firstName: null, lastName: null };
  return { id: user.id, emailAddress: user.email, firstName: user.firstName, lastName: user.lastName };
}
