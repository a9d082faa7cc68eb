// Writes of the business network (/organisations): units with their locations and taps, each
// write with its audit row in the request's transaction.
import type { Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { newId } from '../ids';
import { replaceLocations, replaceTaps } from './children';
import { getUnit } from './read';
import { checkParent } from './tree';
import type { UnitCreateInput, UnitPatch } from './types';

const ENTITY = 'organisation_unit';

export async function createUnit(tx: Tx, actor: AuditActor, input: UnitCreateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const id = newId();
  if (input.parent_id) await checkParent(tx, organisationId, input.parent_id);
  // A code taken by another unit (or tap) is refused by its unique index: 409 ALREADY_EXISTS.
  await tx.networkUnit.create({
    data: { id, organisationId, code: input.code, name: input.name, description: input.description ?? null, type: input.type, parentId: input.parent_id ?? null },
  });
  const owner = { organisationId, unitId: id };
  await replaceLocations(tx, owner, input.locations ?? [], false);
  await replaceTaps(tx, owner, input.taps ?? [], false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

export async function updateUnit(tx: Tx, actor: AuditActor, id: string, patch: UnitPatch): Promise<void> {
  const { organisationId } = actor;
  await getUnit(tx, organisationId, id);
  if (patch.parent_id) await checkParent(tx, organisationId, patch.parent_id, id);
  await tx.networkUnit.update({
    where: { id },
    data: { code: patch.code, name: patch.name, description: patch.description, type: patch.type, parentId: patch.parent_id },
  });
  const owner = { organisationId, unitId: id };
  if (patch.locations) await replaceLocations(tx, owner, patch.locations, true);
  if (patch.taps) await replaceTaps(tx, owner, patch.taps, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Units below it, its creatives, or spend conditions naming it, keep it: their foreign keys answer 409 IN_USE. */
export async function deleteUnit(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const unit = await getUnit(tx, actor.organisationId, id);
  await tx.networkUnit.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: unit.code, name: unit.name } });
}
