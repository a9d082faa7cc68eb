// Custom field definitions (spec 2.13, 4.9; docs/custom-fields.md): per organisation and entity,
// the keys custom_fields[] may carry and the type of their values. Key and entity never change
// (stored values are found by them); type, name, description and allowed_values may.
import type { CustomFieldDefinition, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { alreadyExists, found, invalid } from '../errors';
import { newId } from '../ids';
import type { CustomFieldEntity, CustomFieldType, DefinitionInput, DefinitionPatch } from './types';

const ENTITY = 'custom_field_definition';

export async function createDefinition(tx: Tx, actor: AuditActor, input: DefinitionInput): Promise<{ id: string }> {
  const allowedValues = allowedValuesFor(input.type, input.allowed_values, []);
  const id = newId();
  // The unique index decides a duplicate; the mapper would name it by the index (entity_key),
  // not by the API's field, so the conflict is reported here, from the insert that did nothing.
  const inserted = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO custom_field_definitions (id, organisation_id, entity, key, name, description, type, allowed_values, updated_at)
    VALUES (${id}::uuid, ${actor.organisationId}::uuid, ${input.entity}, ${input.key}, ${input.name}, ${input.description ?? null},
            ${input.type}, ${allowedValues}::text[], now())
    ON CONFLICT (organisation_id, entity, key) DO NOTHING RETURNING id::text AS id`;
  if (!inserted.length) throw alreadyExists('key', `key: ${input.entity} already has a custom field ${input.key}`);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { ...input, allowed_values: allowedValues } });
  return { id };
}

/** The definition, or 404 (also for another organisation's id). */
export async function getDefinition(tx: Tx, organisationId: string, id: string): Promise<CustomFieldDefinition> {
  return found(await tx.customFieldDefinition.findFirst({ where: { organisationId, id } }), 'Custom field definition');
}

/** Every definition, or an entity's, by entity and key. */
export function listDefinitions(tx: Tx, organisationId: string, entity?: CustomFieldEntity): Promise<CustomFieldDefinition[]> {
  return tx.customFieldDefinition.findMany({ where: { organisationId, entity }, orderBy: [{ entity: 'asc' }, { key: 'asc' }] });
}

/** Partial. Stored values are not checked again: a new type or list applies to later writes. */
export async function updateDefinition(tx: Tx, actor: AuditActor, id: string, patch: DefinitionPatch): Promise<void> {
  const current = await getDefinition(tx, actor.organisationId, id);
  const type = patch.type ?? (current.type as CustomFieldType);
  const allowedValues = allowedValuesFor(type, patch.allowed_values, current.allowedValues);
  await tx.customFieldDefinition.update({
    where: { id },
    data: { name: patch.name, description: patch.description, type, allowedValues },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { ...patch, allowed_values: allowedValues } });
}

/** Values written under the key stay where they are. */
export async function deleteDefinition(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getDefinition(tx, actor.organisationId, id);
  await tx.customFieldDefinition.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { entity: current.entity, key: current.key } });
}

/** A LIST needs its values (given, or kept from before); any other type has none. */
function allowedValuesFor(type: CustomFieldType, given: string[] | undefined, current: string[]): string[] {
  if (type !== 'LIST') {
    if (given?.length) throw invalid('allowed_values', `allowed_values: only a LIST has allowed values, not a ${type}`);
    return [];
  }
  const values = given ?? current;
  if (!values.length) throw invalid('allowed_values', 'allowed_values: a LIST needs at least one value');
  return values;
}
