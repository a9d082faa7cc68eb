// Using and cancelling a voucher (docs/vouchers.md "Life cycle"): ACTIVATED → USED | CANCELLED,
// both final; EXPIRED is ACTIVATED past expiration_date, derived at read time. Each move locks
// the voucher row first, so of two concurrent moves the second sees the first one's result.
// Using a voucher moves no wallet money: it is redeemed at the merchant's till.
import type { z } from 'zod';
import type { voucherCancelBody, voucherUseBody } from '../../../api/loyalty/vouchers/schemas';
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { checkCustomFields } from '../../custom-fields/check';
import { conflict, invalid, notFound } from '../../errors';
import { Money, moneyText } from '../../money';
import { recordMoneyChange } from '../../money/ledger/record';
import { secretMatches } from './secret';
import { mergeCustomFields } from '../../custom-fields/values';
import { nowSeconds } from '../../clock';

export type UseVoucherInput = z.output<typeof voucherUseBody>;
export type CancelVoucherInput = z.output<typeof voucherCancelBody>;

interface LockedVoucher {
  id: string;
  contactId: string;
  voucherTypeId: string;
  number: string;
  secretHash: string;
  lifeCycleState: string;
  value: string | null;
  minimumValue: string | null;
  maximumValue: string | null;
  currencyCode: string;
  expirationDate: Date;
  customFields: unknown;
}

const LOCK = `SELECT id, contact_id AS "contactId", voucher_type_id AS "voucherTypeId", number, secret_hash AS "secretHash",
  life_cycle_state AS "lifeCycleState", value::text AS value, minimum_value::text AS "minimumValue", maximum_value::text AS "maximumValue",
  currency_code AS "currencyCode", expiration_date AS "expirationDate", custom_fields AS "customFields"
FROM vouchers WHERE organisation_id = $1 AND id = $2::uuid
FOR UPDATE`;

async function lockVoucher(sql: OrgSql, id: string): Promise<LockedVoucher> {
  const [row] = await sql.rows<LockedVoucher>(LOCK, [id]);
  if (!row) throw notFound('Voucher');
  return row;
}

/** USED and CANCELLED are final; everything else about the state is the caller's to check. */
function assertNotFinal(v: LockedVoucher): void {
  if (v.lifeCycleState === 'USED') throw conflict('VOUCHER_USED', 'The voucher was already used');
  if (v.lifeCycleState === 'CANCELLED') throw conflict('VOUCHER_CANCELLED', 'The voucher is cancelled');
}

// Guarded by the state as well as by the lock: a move happens from ACTIVATED only, whatever led here.
const USE = `UPDATE vouchers SET life_cycle_state = 'USED', used_at = $3::timestamptz, used_value = $4::numeric, used_by = $5,
  custom_fields = $6::jsonb, updated_at = $3::timestamptz
WHERE organisation_id = $1 AND id = $2::uuid AND life_cycle_state = 'ACTIVATED' AND expiration_date > $3::timestamptz
RETURNING id`;

/**
 * POST /vouchers/{id}. Checked in this order: the secret number (a wrong one answers 400 whatever
 * the voucher's state, so it tells nothing about the voucher), then the state (used, cancelled,
 * expired: 409), then the value (400).
 */
export async function useVoucher(sql: OrgSql, actor: AuditActor, voucherId: string, input: UseVoucherInput, now: Date = nowSeconds()): Promise<{ id: string }> {
  await checkCustomFields(sql, 'VOUCHERS', input.custom_fields);
  const v = await lockVoucher(sql, voucherId);
  if (!secretMatches(v.id, v.secretHash, input.secret_number)) throw invalid('secret_number', 'The secret number is not this voucher\'s');
  assertNotFinal(v);
  if (v.expirationDate.getTime() <= now.getTime()) throw conflict('VOUCHER_EXPIRED', 'The voucher is past its expiration date');
  const usedValue = valueOfUse(v, input.value);
  const customFields = mergeCustomFields(v.customFields, input.custom_fields);
  const updated = await sql.rows(USE, [v.id, now, moneyText(usedValue), actor.actorId, JSON.stringify(customFields)]);
  if (!updated.length) throw conflict('VOUCHER_USED', 'The voucher was already used');
  const facts = {
    voucher_id: v.id, number: v.number, contact_id: v.contactId, voucher_type_id: v.voucherTypeId,
    used_value: moneyText(usedValue), currency_code: v.currencyCode, used_on: Math.floor(now.getTime() / 1000),
  };
  await recordMoneyChange(
    sql, actor,
    { action: 'USE', entityType: 'voucher', entityId: v.id, changes: { ...facts, custom_fields: input.custom_fields ?? [] } },
    { type: 'VOUCHER_USED', payload: facts },
  );
  return { id: v.id };
}

/** A fixed voucher is used for its value (none may be given); a variable one for a value within its bounds. */
function valueOfUse(v: LockedVoucher, given: Money | undefined): Money {
  if (v.value !== null) {
    if (given !== undefined) throw invalid('value', 'The voucher has a fixed value: value may be given only for a variable voucher');
    return new Money(v.value);
  }
  if (given === undefined) throw invalid('value', 'The voucher has a variable value: value is required');
  if (!given.gt(0)) throw invalid('value', 'value must be greater than 0');
  if (v.minimumValue !== null && given.lt(v.minimumValue)) throw invalid('value', `value must be at least ${moneyText(new Money(v.minimumValue))}`);
  if (v.maximumValue !== null && given.gt(v.maximumValue)) throw invalid('value', `value must be at most ${moneyText(new Money(v.maximumValue))}`);
  return given;
}

const CANCEL = `UPDATE vouchers SET life_cycle_state = 'CANCELLED', custom_fields = $3::jsonb, updated_at = $4::timestamptz
WHERE organisation_id = $1 AND id = $2::uuid AND life_cycle_state = 'ACTIVATED'
RETURNING id`;

/** POST /vouchers/{id}/cancel: ACTIVATED (expired or not) → CANCELLED. */
export async function cancelVoucher(sql: OrgSql, actor: AuditActor, voucherId: string, input: CancelVoucherInput, now: Date = nowSeconds()): Promise<{ id: string }> {
  await checkCustomFields(sql, 'VOUCHERS', input.custom_fields);
  const v = await lockVoucher(sql, voucherId);
  assertNotFinal(v);
  const customFields = mergeCustomFields(v.customFields, input.custom_fields);
  const updated = await sql.rows(CANCEL, [v.id, JSON.stringify(customFields), now]);
  if (!updated.length) throw conflict('VOUCHER_CANCELLED', 'The voucher is cancelled');
  await recordMoneyChange(
    sql, actor,
    { action: 'CANCEL', entityType: 'voucher', entityId: v.id, changes: { number: v.number, contact_id: v.contactId, custom_fields: input.custom_fields ?? [] } },
    { type: 'VOUCHER_CANCELLED', payload: { voucher_id: v.id, number: v.number, contact_id: v.contactId } },
  );
  return { id: v.id };
}
