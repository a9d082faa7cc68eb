// Reward scheme sign-up and sign-out of an account (spec 4.4). The scheme's sign_up_option says
// what a sign-up must show; a participation ended before is re-opened (docs/rewards.md "Reward schemes").
import type { RewardScheme, Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { alreadyExists, invalid, notFound } from '../../errors';
import { lockPrimaryAccount, REWARDS_ENTITY } from './account';
import type { SchemeSignUpInput } from './types';
import { nowSeconds } from '../../clock';

export async function joinScheme(tx: Tx, actor: AuditActor, accountId: string, input: SchemeSignUpInput, now = nowSeconds()): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockPrimaryAccount(tx, organisationId, accountId);
  const scheme = await tx.rewardScheme.findFirst({ where: { organisationId, id: input.reward_scheme_id } });
  if (!scheme) throw notFound('Reward scheme', 'reward_scheme_id');
  checkSignUp(scheme, input);
  // The account's lock serialises its sign-ups, so this read decides between join, re-open and 409.
  const existing = await tx.accountRewardScheme.findFirst({ where: { organisationId, accountId, schemeId: scheme.id } });
  if (existing && existing.endedOn === null) throw alreadyExists('reward_scheme_id', 'The account has already joined this reward scheme');
  const signedUpOn = input.signed_up_on === undefined ? now : new Date(input.signed_up_on * 1000);
  const values = { signedUpOn, emailAddress: input.email_address ?? null, endedOn: null };
  if (existing) {
    await tx.accountRewardScheme.update({ where: { accountId_schemeId: { accountId, schemeId: scheme.id } }, data: values });
  } else {
    await tx.accountRewardScheme.create({ data: { organisationId, accountId, schemeId: scheme.id, ...values } });
  }
  await audit(tx, actor, {
    action: 'JOIN_SCHEME', entityType: REWARDS_ENTITY, entityId: accountId,
    changes: { reward_scheme_id: scheme.id, reopened: Boolean(existing), signed_up_on: signedUpOn.toISOString() },
  });
  return { id: scheme.id };
}

/** OPEN: anyone; CLOSE_LOOP_SIGN_UP: one of the scheme's codes; EMAIL_DOMAIN: an e-mail address at one of its domains. */
function checkSignUp(scheme: RewardScheme, input: SchemeSignUpInput): void {
  switch (scheme.signUpOption) {
    case 'CLOSE_LOOP_SIGN_UP':
      if (input.sign_up_code === undefined) throw invalid('sign_up_code', 'sign_up_code is required to join this close-loop reward scheme');
      if (!scheme.signUpCodes.includes(input.sign_up_code)) throw invalid('sign_up_code', 'sign_up_code is not a sign-up code of this reward scheme');
      return;
    case 'EMAIL_DOMAIN': {
      if (input.email_address === undefined) throw invalid('email_address', 'email_address is required to join this reward scheme');
      const domain = input.email_address.slice(input.email_address.lastIndexOf('@') + 1).toLowerCase();
      if (!scheme.allowedDomains.some((d) => d.toLowerCase() === domain)) {
        throw invalid('email_address', `email_address: the domain ${domain} is not one this reward scheme allows`);
      }
      return;
    }
    default:
      return;
  }
}

export async function leaveScheme(tx: Tx, actor: AuditActor, accountId: string, schemeId: string, now = nowSeconds()): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockPrimaryAccount(tx, organisationId, accountId);
  const { count } = await tx.accountRewardScheme.updateMany({ where: { organisationId, accountId, schemeId, endedOn: null }, data: { endedOn: now } });
  if (!count) throw notFound('Reward scheme participation');
  await audit(tx, actor, { action: 'LEAVE_SCHEME', entityType: REWARDS_ENTITY, entityId: accountId, changes: { reward_scheme_id: schemeId } });
  return { id: schemeId };
}
