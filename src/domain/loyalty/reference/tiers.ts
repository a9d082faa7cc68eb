// Reward tiers (docs/loyalty-reference.md "Reward tiers"): name, colour, rank (`position`) and
// the value units that reach them. The rule that places an account in a tier is
// src/domain/loyalty/tiers.ts; this file only keeps the list.
import type { Prisma, RewardTier, Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { alreadyExists, found } from '../../errors';
import { newId } from '../../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../../lists';
import { lockOrganisation } from '../../locks';
import type { RewardTierInput, RewardTierPatch } from './types';

const ENTITY = 'reward_tier';

export async function createRewardTier(tx: Tx, actor: AuditActor, input: RewardTierInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await claimPosition(tx, organisationId, input.position);
  const id = newId();
  // A code already taken is refused by the unique index (409 ALREADY_EXISTS naming code).
  await tx.rewardTier.create({
    data: {
      id,
      organisationId,
      name: input.name,
      code: input.code ?? null,
      color: input.color,
      position: input.position,
      periodValueUnits: input.period_value_units,
      lifetimeValueUnits: input.lifetime_value_units,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The tier, or 404 (also for another organisation's id). */
export async function getRewardTier(tx: Tx, organisationId: string, id: string): Promise<RewardTier> {
  return found(await tx.rewardTier.findFirst({ where: { organisationId, id } }), 'Reward tier');
}

export async function listRewardTiers(tx: Tx, organisationId: string, args: ListArgs, q: NameCodeFilter): Promise<ListPage<RewardTier>> {
  const where: Prisma.RewardTierWhereInput = { organisationId, ...nameCodeWhere(q) };
  return pageOf(tx.rewardTier.findMany({ where, ...args }), tx.rewardTier.count({ where }));
}

export async function updateRewardTier(tx: Tx, actor: AuditActor, id: string, patch: RewardTierPatch): Promise<void> {
  const { organisationId } = actor;
  await getRewardTier(tx, organisationId, id);
  if (patch.position !== undefined) await claimPosition(tx, organisationId, patch.position, id);
  await tx.rewardTier.update({
    where: { id },
    data: {
      name: patch.name,
      code: patch.code,
      color: patch.color,
      position: patch.position,
      periodValueUnits: patch.period_value_units,
      lifetimeValueUnits: patch.lifetime_value_units,
    },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** A tier an account holds is kept by its foreign key (409 IN_USE). */
export async function deleteRewardTier(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getRewardTier(tx, actor.organisationId, id);
  await tx.rewardTier.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name, position: current.position } });
}

/**
 * Two tiers never share a position: tiers rank by it. There is no unique index on it (the
 * schema has a plain one), so every write of a position takes a per-organisation lock first and
 * then checks; the lock is held until the transaction ends, so two writes cannot both pass.
 */
async function claimPosition(tx: Tx, organisationId: string, position: number, self?: string): Promise<void> {
  await lockOrganisation(tx, organisationId, 'reward_tier_position');
  const taken = await tx.rewardTier.findFirst({ where: { organisationId, position, ...(self ? { id: { not: self } } : {}) }, select: { id: true } });
  if (taken) throw alreadyExists('position', `position: another reward tier (${taken.id}) already has position ${position}`);
}
