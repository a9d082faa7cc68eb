// Writes of spend conditions, each with its audit row in the request's transaction.
import type { z } from 'zod';
import type { spendConditionCreateBody, spendConditionUpdateBody } from '../../api/spend-conditions/schemas';
import type { Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { newId } from '../ids';
import { getSpendCondition } from './read';
import { replaceProducts, replaceUnits } from './refs';

export type SpendConditionInput = z.output<typeof spendConditionCreateBody>;
export type SpendConditionPatch = z.output<typeof spendConditionUpdateBody>;

const ENTITY = 'spend_condition';

export async function createSpendCondition(tx: Tx, actor: AuditActor, input: SpendConditionInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const id = newId();
  // A code already taken is refused by the unique index (409 ALREADY_EXISTS naming code).
  await tx.spendCondition.create({ data: { id, organisationId, name: input.name, code: input.code ?? null, timings: input.timings ?? [] } });
  const owner = { organisationId, spendConditionId: id };
  await replaceUnits(tx, owner, input.organisations ?? [], false);
  await replaceProducts(tx, owner, input.products ?? [], false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

export async function updateSpendCondition(tx: Tx, actor: AuditActor, id: string, patch: SpendConditionPatch): Promise<void> {
  const { organisationId } = actor;
  await getSpendCondition(tx, organisationId, id);
  await tx.spendCondition.update({ where: { id }, data: { name: patch.name, code: patch.code, timings: patch.timings } });
  const owner = { organisationId, spendConditionId: id };
  if (patch.organisations) await replaceUnits(tx, owner, patch.organisations, true);
  if (patch.products) await replaceProducts(tx, owner, patch.products, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its unit and product references go with it; wallet money restricted to it (later) keeps it. */
export async function deleteSpendCondition(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getSpendCondition(tx, actor.organisationId, id);
  await tx.spendCondition.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}
