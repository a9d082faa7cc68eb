// Reward offers (docs/loyalty-reference.md "Reward offers"): the award rules of a scheme, which
// src/domain/loyalty/purchases/awards.ts applies to purchases. Each write with its audit row in
// the request's transaction; every rule is checked before anything is written.
import type { Prisma, Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { found, invalid, notFound } from '../../errors';
import { newId } from '../../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../../lists';
import { Money } from '../../money';
import { checkMerchants, checkProducts, productColumns, type ProductRef } from './refs';
import type { RewardOfferInput, RewardOfferPatch } from './types';
import type { AwardType } from './values';

const described = { select: { id: true, name: true, description: true } } as const;

const INCLUDE = {
  scheme: { select: { id: true, name: true, code: true } },
  products: { orderBy: { position: 'asc' }, include: { productFamily: described, productType: described, product: described } },
  merchants: { orderBy: { position: 'asc' }, include: { unit: { select: { id: true, name: true, code: true } } } },
  spendCondition: { select: { id: true, name: true } },
  voucherType: { select: { id: true, name: true } },
} satisfies Prisma.RewardOfferInclude;

export type RewardOfferRecord = Prisma.RewardOfferGetPayload<{ include: typeof INCLUDE }>;

export interface RewardOfferFilter extends NameCodeFilter {
  schemeId?: string;
  lifeCycleState?: string;
}

const ENTITY = 'reward_offer';

export async function createRewardOffer(tx: Tx, actor: AuditActor, input: RewardOfferInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  // The scheme owns the offer (as a wallet owns a journal): an unknown one is 400 naming it.
  const scheme = await tx.rewardScheme.findFirst({ where: { organisationId, id: input.reward_scheme_id }, select: { id: true } });
  if (!scheme) throw notFound('Reward scheme', 'reward_scheme_id');
  checkAward(input.award_type, input.award_value);
  checkWindow(input.valid_from ?? null, input.valid_to ?? null, 'valid_to');
  await checkRefs(tx, organisationId, input);
  const id = newId();
  // A code already taken is refused by the unique index (409 ALREADY_EXISTS naming code).
  await tx.rewardOffer.create({
    data: {
      id,
      organisationId,
      schemeId: scheme.id,
      name: input.name,
      code: input.code ?? null,
      description: input.description ?? null,
      lifeCycleState: input.life_cycle_state,
      awardType: input.award_type,
      awardValue: input.award_value,
      minimumPurchase: input.minimum_purchase ?? null,
      spendConditionId: input.spend_condition_id ?? null,
      validityPeriod: input.validity?.period ?? null,
      validityUot: input.validity?.uot ?? null,
      voucherTypeId: input.voucher_type_id ?? null,
      validFrom: toDate(input.valid_from),
      validTo: toDate(input.valid_to),
    },
  });
  await writeProducts(tx, organisationId, id, input.products ?? [], false);
  await writeMerchants(tx, organisationId, id, input.merchants ?? [], false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { reward_scheme_id: scheme.id, fields: Object.keys(input) } });
  return { id };
}

/** The offer with what it names resolved, or 404 (also for another organisation's id). */
export async function getRewardOffer(tx: Tx, organisationId: string, id: string): Promise<RewardOfferRecord> {
  return found(await tx.rewardOffer.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Reward offer');
}

export async function listRewardOffers(tx: Tx, organisationId: string, args: ListArgs, q: RewardOfferFilter): Promise<ListPage<RewardOfferRecord>> {
  const where: Prisma.RewardOfferWhereInput = { organisationId, schemeId: q.schemeId, lifeCycleState: q.lifeCycleState, ...nameCodeWhere(q) };
  return pageOf(tx.rewardOffer.findMany({ where, include: INCLUDE, ...args }), tx.rewardOffer.count({ where }));
}

/** Partial: the award and the window are checked on the result of the change. */
export async function updateRewardOffer(tx: Tx, actor: AuditActor, id: string, patch: RewardOfferPatch): Promise<void> {
  const { organisationId } = actor;
  // Two partial updates must not each pass against the old row and together break a rule.
  await tx.$queryRaw`SELECT id FROM reward_offers WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const current = await getRewardOffer(tx, organisationId, id);
  const awardGiven = patch.award_type !== undefined || patch.award_value !== undefined;
  if (awardGiven) checkAward(patch.award_type ?? (current.awardType as AwardType), patch.award_value ?? current.awardValue);
  if (patch.valid_from !== undefined || patch.valid_to !== undefined) {
    const from = patch.valid_from !== undefined ? patch.valid_from : epochOf(current.validFrom);
    const to = patch.valid_to !== undefined ? patch.valid_to : epochOf(current.validTo);
    checkWindow(from, to, patch.valid_to !== undefined ? 'valid_to' : 'valid_from');
  }
  await checkRefs(tx, organisationId, patch);
  const data: Prisma.RewardOfferUncheckedUpdateInput = {
    name: patch.name,
    code: patch.code,
    description: patch.description,
    lifeCycleState: patch.life_cycle_state,
    awardType: patch.award_type,
    awardValue: patch.award_value,
    minimumPurchase: patch.minimum_purchase,
    spendConditionId: patch.spend_condition_id,
    voucherTypeId: patch.voucher_type_id,
  };
  if (patch.validity !== undefined) {
    data.validityPeriod = patch.validity?.period ?? null;
    data.validityUot = patch.validity?.uot ?? null;
  }
  if (patch.valid_from !== undefined) data.validFrom = toDate(patch.valid_from);
  if (patch.valid_to !== undefined) data.validTo = toDate(patch.valid_to);
  await tx.rewardOffer.update({ where: { id }, data });
  if (patch.products) await writeProducts(tx, organisationId, id, patch.products, true);
  if (patch.merchants) await writeMerchants(tx, organisationId, id, patch.merchants, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its product and merchant lists go with it. */
export async function deleteRewardOffer(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getRewardOffer(tx, actor.organisationId, id);
  await tx.rewardOffer.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name, reward_scheme_id: current.schemeId } });
}

/** A percentage above 100 would award more than the purchase. */
function checkAward(type: AwardType, value: Money): void {
  if (type === 'PERCENTAGE' && value.gt(100)) throw invalid('award_value', 'award_value: a PERCENTAGE award is at most 100');
}

function checkWindow(from: number | null, to: number | null, attribute: 'valid_from' | 'valid_to'): void {
  if (from !== null && to !== null && to <= from) throw invalid(attribute, `${attribute}: valid_to must be later than valid_from`);
}

async function checkRefs(tx: Tx, organisationId: string, refs: RewardOfferPatch): Promise<void> {
  const select = { id: true } as const;
  if (refs.spend_condition_id && !(await tx.spendCondition.findFirst({ where: { organisationId, id: refs.spend_condition_id }, select }))) {
    throw invalid('spend_condition_id', 'spend_condition_id: spend condition not found');
  }
  if (refs.voucher_type_id && !(await tx.voucherType.findFirst({ where: { organisationId, id: refs.voucher_type_id }, select }))) {
    throw invalid('voucher_type_id', 'voucher_type_id: voucher type not found');
  }
  if (refs.merchants) await checkMerchants(tx, organisationId, refs.merchants);
  if (refs.products) await checkProducts(tx, organisationId, refs.products);
}

async function writeProducts(tx: Tx, organisationId: string, offerId: string, refs: ProductRef[], existing: boolean): Promise<void> {
  if (existing) await tx.rewardOfferProduct.deleteMany({ where: { organisationId, offerId } });
  if (!refs.length) return;
  await tx.rewardOfferProduct.createMany({ data: refs.map((r, position) => ({ id: newId(), organisationId, offerId, position, ...productColumns(r) })) });
}

async function writeMerchants(tx: Tx, organisationId: string, offerId: string, unitIds: string[], existing: boolean): Promise<void> {
  if (existing) await tx.rewardOfferMerchant.deleteMany({ where: { organisationId, offerId } });
  if (unitIds.length) await tx.rewardOfferMerchant.createMany({ data: unitIds.map((unitId, position) => ({ organisationId, offerId, unitId, position })) });
}

const toDate = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? null : new Date(seconds * 1000));
const epochOf = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);
