// Issuing a voucher (docs/vouchers.md "Issuing"): POST /vouchers, and a purchase award inside its
// own transaction. One locked read of the contact, one read of the type, one insert, then the
// audit row and the VOUCHER_ISSUED outbox event, all on the caller's OrgSql transaction.
import type { OrgSql } from '../../../db/sql';
import type { AuditActor } from '../../audit';
import { checkCustomFields } from '../../custom-fields/check';
import { contactStatementParams } from '../../contacts/read-statement';
import { conflict, invalid, notFound } from '../../errors';
import { newId, randomDigits } from '../../ids';
import { Money, moneyText } from '../../money';
import { recordMoneyChange } from '../../money/ledger/record';
import { hashSecret, newSecretNumber } from './secret';
import { mergeCustomFields, type CustomField } from '../../custom-fields/values';
import { expirationOf, validityUnit } from '../validity';
import { nowSeconds } from '../../clock';

/** Digits of a voucher number (like a wallet code): random, no leading zero, unique per organisation. */
export const NUMBER_DIGITS = 16;
/** Inserts tried before giving up on a free number; with 9·10^15 numbers a second one is already rare. */
const NUMBER_ATTEMPTS = 3;

export interface IssueVoucherInput {
  /** The contact's id, or its code. */
  contactId: string;
  voucherTypeId: string;
  /** The purchase whose award issues it. */
  purchaseId?: string | null;
  customFields?: readonly CustomField[] | null;
}

export interface IssuedVoucher {
  id: string;
  number: string;
  /** The secret number in clear: hand it to the customer; it is never readable again. */
  secret: string;
}

// Locked for share: an anonymisation committing between this check and the insert would
// otherwise leave a new voucher on an anonymised contact.
const CONTACT = `SELECT id, is_anonymized AS "isAnonymized" FROM contacts
WHERE organisation_id = $1 AND (id = $2::uuid OR code = $3::text)
ORDER BY (id = $2::uuid) DESC NULLS LAST LIMIT 1
FOR SHARE`;

interface TypeRow {
  id: string;
  valueType: string;
  value: string | null;
  extraAddedValue: string | null;
  minimumValue: string | null;
  maximumValue: string | null;
  currencyCode: string;
  validityPeriod: number;
  validityUot: string;
  classification: string;
  category: string;
}

const TYPE = `SELECT id, value_type AS "valueType", value::text AS value, extra_added_value::text AS "extraAddedValue",
  minimum_value::text AS "minimumValue", maximum_value::text AS "maximumValue", currency_code AS "currencyCode",
  validity_period AS "validityPeriod", validity_uot AS "validityUot", classification, category
FROM voucher_types WHERE organisation_id = $1 AND id = $2::uuid`;

// A number already taken inserts nothing (no error, so the transaction stays usable) and is retried.
const INSERT = `INSERT INTO vouchers (id, organisation_id, contact_id, voucher_type_id, number, secret_hash, life_cycle_state,
  classification, category, value, extra_added_value, minimum_value, maximum_value, currency_code, validity_period, validity_uot,
  expiration_date, purchase_id, custom_fields, created_at, updated_at)
VALUES ($2::uuid, $1, $3::uuid, $4::uuid, $5, $6, 'ACTIVATED', $7, $8, $9::numeric, $10::numeric, $11::numeric, $12::numeric, $13, $14::int, $15,
  $16::timestamptz, $17::uuid, $18::jsonb, $19::timestamptz, $19::timestamptz)
ON CONFLICT (organisation_id, number) DO NOTHING
RETURNING id`;

export async function issueVoucher(sql: OrgSql, actor: AuditActor, input: IssueVoucherInput, now: Date = nowSeconds()): Promise<IssuedVoucher> {
  await checkCustomFields(sql, 'VOUCHERS', input.customFields);
  const [contact] = await sql.rows<{ id: string; isAnonymized: boolean }>(CONTACT, contactStatementParams(input.contactId));
  if (!contact) throw notFound('Contact', 'contact_id');
  if (contact.isAnonymized) throw conflict('CONTACT_ANONYMIZED', 'The contact is anonymized: it cannot receive a voucher', 'contact_id');
  const [type] = await sql.rows<TypeRow>(TYPE, [input.voucherTypeId]);
  if (!type) throw notFound('Voucher type', 'voucher_type_id');
  const terms = termsOf(type);
  const unit = validityUnit(type.validityUot);
  if (!unit) throw invalid('voucher_type_id', `The voucher type's validity_uot ${type.validityUot} is not DAY, WEEK, MONTH or YEAR`);
  const expiration = expirationOf(now, type.validityPeriod, unit);
  if (!expiration) throw invalid('voucher_type_id', "The voucher type's validity ends outside the dates the API can show");

  const id = newId();
  const secret = newSecretNumber();
  const secretHash = hashSecret(id, secret);
  const customFields = mergeCustomFields(null, input.customFields);
  let number: string | undefined;
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS && number === undefined; attempt++) {
    const candidate = randomDigits(NUMBER_DIGITS);
    const inserted = await sql.rows<{ id: string }>(INSERT, [
      id, contact.id, type.id, candidate, secretHash, type.classification, type.category,
      terms.value, type.extraAddedValue, terms.minimumValue, terms.maximumValue, type.currencyCode, type.validityPeriod, unit,
      expiration, input.purchaseId ?? null, JSON.stringify(customFields), now,
    ]);
    if (inserted.length) number = candidate;
  }
  if (number === undefined) throw new Error(`no free voucher number after ${NUMBER_ATTEMPTS} attempts`);

  const facts = {
    voucher_id: id, number, contact_id: contact.id, voucher_type_id: type.id, purchase_id: input.purchaseId ?? null,
    value: terms.value, extra_added_value: type.extraAddedValue, minimum_value: terms.minimumValue, maximum_value: terms.maximumValue,
    currency_code: type.currencyCode, expiration_date: Math.floor(expiration.getTime() / 1000),
  };
  await recordMoneyChange(
    sql, actor,
    { action: 'ISSUE', entityType: 'voucher', entityId: id, changes: { ...facts, custom_fields: customFields } },
    { type: 'VOUCHER_ISSUED', payload: facts },
  );
  return { id, number, secret };
}

/**
 * FIXED: the type's value, no bounds. VARIABLE: no value, the type's bounds (either may be
 * absent: unbounded on that side). A type that breaks this is refused rather than copied.
 */
function termsOf(type: TypeRow): { value: string | null; minimumValue: string | null; maximumValue: string | null } {
  const kind = type.valueType.trim().toUpperCase();
  if (kind === 'FIXED') {
    if (type.value === null || !new Money(type.value).gt(0)) throw invalid('voucher_type_id', 'The FIXED voucher type has no positive value');
    return { value: moneyText(new Money(type.value)), minimumValue: null, maximumValue: null };
  }
  if (kind === 'VARIABLE') {
    const min = type.minimumValue === null ? null : new Money(type.minimumValue);
    const max = type.maximumValue === null ? null : new Money(type.maximumValue);
    if ((min && min.lt(0)) || (max && !max.gt(0)) || (min && max && min.gt(max))) {
      throw invalid('voucher_type_id', 'The VARIABLE voucher type has bounds no value can meet');
    }
    return { value: null, minimumValue: min && moneyText(min), maximumValue: max && moneyText(max) };
  }
  throw invalid('voucher_type_id', `The voucher type's value_type ${type.valueType} is not FIXED or VARIABLE`);
}
