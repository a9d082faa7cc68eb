// Voucher types (docs/loyalty-reference.md "Voucher types"): what a voucher of the type is worth
// and how long it lives. Issued vouchers copy these values, so a change applies to vouchers
// issued afterwards. Each write with its audit row in the request's transaction.
import type { Prisma, Tx, VoucherType } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { found, invalid } from '../../errors';
import { newId } from '../../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage, type NameCodeFilter } from '../../lists';
import type { Money } from '../../money';
import { getSettings } from '../../money/settings';
import type { VoucherTypeInput, VoucherTypePatch } from './types';
import type { VoucherValueType } from './values';

export interface VoucherTypeFilter extends NameCodeFilter {
  valueType?: string;
  classification?: string;
  category?: string;
}

interface Values {
  value: Money | null;
  minimumValue: Money | null;
  maximumValue: Money | null;
}

const ENTITY = 'voucher_type';

export async function createVoucherType(tx: Tx, actor: AuditActor, input: VoucherTypeInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const values = checkValues(input.value_type, { value: input.value ?? null, minimumValue: input.minimum_value ?? null, maximumValue: input.maximum_value ?? null });
  const currencyCode = input.currency_code ?? (await getSettings(tx, organisationId)).systemCurrencyCode;
  const id = newId();
  // A code already taken is refused by the unique index (409 ALREADY_EXISTS naming code).
  await tx.voucherType.create({
    data: {
      id,
      organisationId,
      name: input.name,
      code: input.code ?? null,
      description: input.description ?? null,
      valueType: input.value_type,
      ...values,
      extraAddedValue: input.extra_added_value ?? null,
      currencyCode,
      validityPeriod: input.validity_period,
      validityUot: input.validity_uot,
      classification: input.classification,
      category: input.category,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id };
}

/** The voucher type, or 404 (also for another organisation's id). */
export async function getVoucherType(tx: Tx, organisationId: string, id: string): Promise<VoucherType> {
  return found(await tx.voucherType.findFirst({ where: { organisationId, id } }), 'Voucher type');
}

export async function listVoucherTypes(tx: Tx, organisationId: string, args: ListArgs, q: VoucherTypeFilter): Promise<ListPage<VoucherType>> {
  const where: Prisma.VoucherTypeWhereInput = { organisationId, valueType: q.valueType, classification: q.classification, category: q.category, ...nameCodeWhere(q) };
  return pageOf(tx.voucherType.findMany({ where, ...args }), tx.voucherType.count({ where }));
}

/** Partial; the value rule holds for the result. Changing value_type clears the values of the former type. */
export async function updateVoucherType(tx: Tx, actor: AuditActor, id: string, patch: VoucherTypePatch): Promise<void> {
  const { organisationId } = actor;
  // Two partial updates must not each pass against the old row and together break the rule.
  await tx.$queryRaw`SELECT id FROM voucher_types WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const current = await getVoucherType(tx, organisationId, id);
  const type = patch.value_type ?? (current.valueType as VoucherValueType);
  const switched = type !== current.valueType;
  const pick = (given: Money | null | undefined, stored: Money | null) => (given !== undefined ? given : switched ? null : stored);
  const values = checkValues(
    type,
    { value: pick(patch.value, current.value), minimumValue: pick(patch.minimum_value, current.minimumValue), maximumValue: pick(patch.maximum_value, current.maximumValue) },
    patch.minimum_value !== undefined && patch.maximum_value === undefined ? 'minimum_value' : 'maximum_value',
  );
  await tx.voucherType.update({
    where: { id },
    data: {
      name: patch.name,
      code: patch.code,
      description: patch.description,
      valueType: type,
      ...values,
      extraAddedValue: patch.extra_added_value,
      currencyCode: patch.currency_code,
      validityPeriod: patch.validity_period,
      validityUot: patch.validity_uot,
      classification: patch.classification,
      category: patch.category,
    },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** A voucher type that vouchers or offers name is kept by their foreign keys (409 IN_USE). */
export async function deleteVoucherType(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getVoucherType(tx, actor.organisationId, id);
  await tx.voucherType.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { code: current.code, name: current.name } });
}

/** FIXED: a value and no range; VARIABLE: a range (0 < minimum ≤ maximum) and no value. Amounts are > 0 by their schema. */
function checkValues(type: VoucherValueType, v: Values, rangeAttribute: 'minimum_value' | 'maximum_value' = 'maximum_value'): Values {
  if (type === 'FIXED') {
    if (v.value === null) throw invalid('value', 'value: required for a FIXED voucher type');
    if (v.minimumValue !== null) throw invalid('minimum_value', 'minimum_value: only a VARIABLE voucher type has a range');
    if (v.maximumValue !== null) throw invalid('maximum_value', 'maximum_value: only a VARIABLE voucher type has a range');
    return v;
  }
  if (v.value !== null) throw invalid('value', 'value: a VARIABLE voucher type has minimum_value and maximum_value instead');
  if (v.minimumValue === null) throw invalid('minimum_value', 'minimum_value: required for a VARIABLE voucher type');
  if (v.maximumValue === null) throw invalid('maximum_value', 'maximum_value: required for a VARIABLE voucher type');
  if (v.minimumValue.gt(v.maximumValue)) throw invalid(rangeAttribute, `${rangeAttribute}: minimum_value must not be greater than maximum_value`);
  return v;
}
