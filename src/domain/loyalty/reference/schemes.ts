// Reward schemes (docs/loyalty-reference.md "Reward schemes"): how an account joins one (the
// sign-up option with its codes or e-mail domains) and which merchants take part. Each write
// with its audit row in the request's transaction.
import type { Prisma, Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { found, invalid } from '../../errors';
import { newId } from '../../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../../lists';
import { checkMerchants } from './refs';
import type { RewardSchemeInput, RewardSchemePatch } from './types';
import type { SignUpOption } from './values';

const INCLUDE = {
  merchants: { orderBy: { position: 'asc' }, include: { unit: { select: { id: true, name: true, code: true } } } },
} satisfies Prisma.RewardSchemeInclude;

export type RewardSchemeRecord = Prisma.RewardSchemeGetPayload<{ include: typeof INCLUDE }>;

export interface RewardSchemeFilter extends NameCodeFilter {
  signUpOption?: SignUpOption;
}

const ENTITY = 'reward_scheme';

export async function createRewardScheme(tx: Tx, actor: AuditActor, input: RewardSchemeInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const lists = signUpLists(input.sign_up_option, input.sign_up_codes ?? [], input.allowed_domains ?? []);
  const merchants = input.merchants ?? [];
  await checkMerchants(tx, organisationId, merchants);
  const id = newId();
  // A code already taken is refused by the unique index (409 ALREADY_EXISTS naming code).
  await tx.rewardScheme.create({
    data: {
      id,
      organisationId,
      name: input.name,
      code: input.code ?? null,
      description: input.description ?? null,
      signUpOption: input.sign_up_option,
      ...lists,
    },
  });
  await writeMerchants(tx, organisationId, id, merchants, false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The scheme, or 404 (also for another organisation's id). */
export async function getRewardScheme(tx: Tx, organisationId: string, id: string): Promise<RewardSchemeRecord> {
  return found(await tx.rewardScheme.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Reward scheme');
}

export async function listRewardSchemes(tx: Tx, organisationId: string, args: ListArgs, q: RewardSchemeFilter): Promise<ListPage<RewardSchemeRecord>> {
  const where: Prisma.RewardSchemeWhereInput = { organisationId, signUpOption: q.signUpOption, ...nameCodeWhere(q) };
  return pageOf(tx.rewardScheme.findMany({ where, include: INCLUDE, ...args }), tx.rewardScheme.count({ where }));
}

/** Partial. The sign-up rule holds for the result: changing the option clears the former option's list. */
export async function updateRewardScheme(tx: Tx, actor: AuditActor, id: string, patch: RewardSchemePatch): Promise<void> {
  const { organisationId } = actor;
  // Two partial updates must not each pass against the old row and together break the rule.
  await tx.$queryRaw`SELECT id FROM reward_schemes WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const current = await getRewardScheme(tx, organisationId, id);
  const option = patch.sign_up_option ?? (current.signUpOption as SignUpOption);
  const switched = option !== current.signUpOption;
  const lists = signUpLists(
    option,
    patch.sign_up_codes ?? (switched ? [] : current.signUpCodes),
    patch.allowed_domains ?? (switched ? [] : current.allowedDomains),
  );
  if (patch.merchants) await checkMerchants(tx, organisationId, patch.merchants);
  await tx.rewardScheme.update({
    where: { id },
    data: { name: patch.name, code: patch.code, description: patch.description, signUpOption: option, ...lists },
  });
  if (patch.merchants) await writeMerchants(tx, organisationId, id, patch.merchants, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its merchant list goes with it; a scheme with offers or members is kept by their foreign keys (409 IN_USE). */
export async function deleteRewardScheme(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getRewardScheme(tx, actor.organisationId, id);
  await tx.rewardScheme.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}

/** Codes only for CLOSE_LOOP_SIGN_UP and domains only for EMAIL_DOMAIN, each required (non-empty) there. */
function signUpLists(option: SignUpOption, codes: string[], domains: string[]): { signUpCodes: string[]; allowedDomains: string[] } {
  if (option === 'CLOSE_LOOP_SIGN_UP' && !codes.length) throw invalid('sign_up_codes', 'sign_up_codes: a CLOSE_LOOP_SIGN_UP scheme needs at least one code');
  if (option !== 'CLOSE_LOOP_SIGN_UP' && codes.length) throw invalid('sign_up_codes', `sign_up_codes: only a CLOSE_LOOP_SIGN_UP scheme has sign-up codes, not ${option}`);
  if (option === 'EMAIL_DOMAIN' && !domains.length) throw invalid('allowed_domains', 'allowed_domains: an EMAIL_DOMAIN scheme needs at least one domain');
  if (option !== 'EMAIL_DOMAIN' && domains.length) throw invalid('allowed_domains', `allowed_domains: only an EMAIL_DOMAIN scheme has allowed domains, not ${option}`);
  return { signUpCodes: codes, allowedDomains: domains };
}

async function writeMerchants(tx: Tx, organisationId: string, schemeId: string, unitIds: string[], existing: boolean): Promise<void> {
  if (existing) await tx.rewardSchemeMerchant.deleteMany({ where: { organisationId, schemeId } });
  if (unitIds.length) await tx.rewardSchemeMerchant.createMany({ data: unitIds.map((unitId, position) => ({ organisationId, schemeId, unitId, position })) });
}
