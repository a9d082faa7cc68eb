// Vouchers (spec 2.11, 4.3; docs/vouchers.md): request bodies, the list query and the responses.
import { z } from 'zod';
import { VOUCHER_CATEGORIES, VOUCHER_CLASSIFICATIONS } from '../../../domain/loyalty/reference/values';
import { contentList } from '../../lists';
import { pagingQuery, zAmount, zId, zAnyCase } from '../../validation';
import { secret } from '../../secret-fields';
import { customFieldsBody, customFieldsOut } from '../../custom-fields/schemas';

export const voucherIssueBody = z.strictObject({
  voucher_type_id: zId.meta({ description: 'The voucher type whose value, bounds, currency, validity, classification and category the voucher copies.' }),
  contact_id: z.string().min(1).max(100).meta({ description: 'Contact GUID or code. An anonymized contact cannot receive a voucher (409 CONTACT_ANONYMIZED).' }),
  custom_fields: customFieldsBody.optional(),
});

export const voucherUseBody = z.strictObject({
  secret_number: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'The secret number answered when the voucher was issued (a string of digits; spaces and hyphens are ignored).' }),
  value: zAmount.optional().meta({ description: 'Only for a variable voucher (no `value` of its own), and then required: between its minimum_value and maximum_value.' }),
  custom_fields: customFieldsBody.optional(),
});

export const voucherCancelBody = z.strictObject({ custom_fields: customFieldsBody.optional() });

export const VOUCHER_STATES = ['ACTIVATED', 'EXPIRED', 'USED', 'CANCELLED'] as const;

export const voucherListQuery = pagingQuery(['created_on', 'expiration_date', 'number', 'value', 'used_on', 'used_value']).extend({
  classification: zAnyCase(VOUCHER_CLASSIFICATIONS).optional().meta({ description: 'Any letter case.' }),
  life_cycle_state: zAnyCase(VOUCHER_STATES)
    .optional()
    .meta({ description: 'EXPIRED: not used or cancelled, and past expiration_date; ACTIVATED: usable now.' }),
  voucher_type_id: zId.optional(),
  category: zAnyCase(VOUCHER_CATEGORIES).optional().meta({ description: 'Any letter case.' }),
  number: z.string().min(1).max(100).optional().meta({ description: 'The voucher number, exactly.' }),
  contact_id: z.string().min(1).max(100).optional().meta({ description: 'Contact GUID or code.' }),
});

export const voucherIssued = z.object({
  id: z.string(),
  number: z.string(),
  secret_number: secret('shown_once', z
    .string()
    .nullable()
    .meta({ description: 'Shown only in this response (null in an Idempotency-Key replay): only a keyed hash of it is kept.' })),
});

const amountOrNull = z.number().nullable();

export const voucherItem = z.object({
  id: z.string(),
  contact_id: z.string(),
  number: z.string(),
  classification: z.string(),
  life_cycle_state: z.enum(VOUCHER_STATES).meta({ description: 'EXPIRED is shown for an ACTIVATED voucher past its expiration_date.' }),
  category: z.string(),
  value: amountOrNull.meta({ description: 'null for a variable voucher.' }),
  extra_added_value: amountOrNull,
  minimum_value: amountOrNull.meta({ description: 'Variable vouchers only (null when value is set).' }),
  maximum_value: amountOrNull.meta({ description: 'Variable vouchers only (null when value is set).' }),
  currency_code: z.string(),
  validity_period: z.number().int(),
  validity_UOT: z.string().meta({ description: 'DAY, WEEK, MONTH or YEAR.' }),
  expiration_date: z.number().int(),
  voucher_type: z.object({ id: z.string(), name: z.string() }),
  purchase_id: z.string().nullable().meta({ description: 'The purchase whose award issued it.' }),
  used_on: z.number().int().nullable(),
  used_value: amountOrNull,
  used_by: z.object({ id: z.string() }).nullable().meta({ description: 'The API key or user that used it.' }),
  custom_fields: customFieldsOut,
  created_on: z.number().int(),
});

export const voucherList = contentList(voucherItem);
