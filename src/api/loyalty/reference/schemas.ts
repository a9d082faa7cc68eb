// Loyalty reference data (docs/loyalty-reference.md): reward schemes, tiers and offers, voucher
// types. Rules that need the stored record as well (a partial update of a value that depends on
// another field) are checked by the domain on the merged result.
import { z } from 'zod';
import {
  AWARD_TYPES,
  OFFER_STATES,
  SIGN_UP_OPTIONS,
  UNITS_OF_TIME,
  VOUCHER_CATEGORIES,
  VOUCHER_CLASSIFICATIONS,
  VOUCHER_VALUE_TYPES,
} from '../../../domain/loyalty/reference/values';
import { contentList, nameCodeQuery } from '../../lists';
import { PRODUCT_ID_TYPES } from '../../spend-conditions/schemas';
import { distinct, distinctItems, pagingQuery, whenParsed, zAnyCase, zCurrency, zEpoch, zId, zNonNegativeAmount, zPositiveAmount, zRefCode, zRefName } from '../../validation';

const code = zRefCode;
const name = zRefName;
const description = z.string().max(2000);


const merchants = distinctItems(z.array(zId).max(200))
  .meta({ description: 'Ids of network units (/organisations) of type MERCHANT; empty: every merchant.' });

const productRef = z.strictObject({ id_type: z.enum(PRODUCT_ID_TYPES), id: zId });
const products = z
  .array(productRef)
  .max(200)
  .superRefine(distinct((p: { id_type: string; id: string }) => `${p.id_type}:${p.id}`, 'id'), whenParsed)
  .meta({ description: 'Products, product types or product families (as in spend conditions); empty: every product.' });

const named = z.object({ id: z.string(), name: z.string() });
const coded = named.extend({ code: z.string().nullable() });
const stamps = { created_on: z.number().int(), updated_on: z.number().int() };
/** The first fields of an item that has a code and a description. */
const describedItem = { id: z.string(), code: z.string().nullable(), name: z.string(), description: z.string().nullable() };

// ---------------------------------------------------------------- reward schemes

const signUpCodes = distinctItems(z.array(z.string().trim().min(1).max(100)).max(1000))
  .meta({ description: 'Codes that admit an account to a CLOSE_LOOP_SIGN_UP scheme: required (non-empty) for it, not allowed otherwise.' });

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const allowedDomain = z
  .string()
  .trim()
  .transform((d) => d.toLowerCase().replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN, 'must be a domain name such as example.com'));
const allowedDomains = distinctItems(z.array(allowedDomain).max(1000))
  .meta({
    description:
      'E-mail domains admitted to an EMAIL_DOMAIN scheme: required (non-empty) for it, not allowed otherwise. Stored lower-case, without a leading "@".',
  });

const signUpOption = z.enum(SIGN_UP_OPTIONS).meta({
  description: 'OPEN: any account may join; CLOSE_LOOP_SIGN_UP: with one of sign_up_codes; EMAIL_DOMAIN: with an e-mail address in allowed_domains.',
});

export const rewardSchemeCreateBody = z.strictObject({
  name,
  code: code.nullish(),
  description: description.nullish(),
  sign_up_option: signUpOption,
  sign_up_codes: signUpCodes.optional(),
  allowed_domains: allowedDomains.optional(),
  merchants: merchants.optional(),
});

/** Partial; a list given replaces the list. Changing sign_up_option clears the list of the former option. */
export const rewardSchemeUpdateBody = z.strictObject({
  name: name.optional(),
  code: code.nullish(),
  description: description.nullish(),
  sign_up_option: signUpOption.optional(),
  sign_up_codes: signUpCodes.optional(),
  allowed_domains: allowedDomains.optional(),
  merchants: merchants.optional(),
});

export const rewardSchemeListQuery = pagingQuery(['name', 'code', 'created_on']).extend({
  ...nameCodeQuery,
  sign_up_option: z.enum(SIGN_UP_OPTIONS).optional(),
});

export const rewardSchemeItem = z.object({
  ...describedItem,
  sign_up_option: z.enum(SIGN_UP_OPTIONS),
  sign_up_codes: z.array(z.string()),
  allowed_domains: z.array(z.string()),
  merchants: z.array(coded),
  ...stamps,
});

export const rewardSchemeList = contentList(rewardSchemeItem);

// ---------------------------------------------------------------- reward tiers

const color = z
  .string()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'must be a hex colour "#RRGGBB"')
  .transform((c) => c.toUpperCase())
  .meta({ description: 'Hex colour "#RRGGBB"; stored upper-case.' });
const position = z
  .number()
  .int()
  .min(0)
  .max(1_000_000)
  .meta({ description: 'Rank of the tier, lowest first; unique within the organisation (409 ALREADY_EXISTS naming position).' });

export const rewardTierCreateBody = z.strictObject({
  name,
  code: code.nullish(),
  color,
  position,
  period_value_units: zNonNegativeAmount.meta({ description: 'Value units within the period (the calendar year) that reach the tier.' }),
  lifetime_value_units: zNonNegativeAmount.meta({ description: 'Lifetime value units that reach the tier.' }),
});

export const rewardTierUpdateBody = z.strictObject({
  name: name.optional(),
  code: code.nullish(),
  color: color.optional(),
  position: position.optional(),
  period_value_units: zNonNegativeAmount.optional(),
  lifetime_value_units: zNonNegativeAmount.optional(),
});

/** Unlike other lists: by position, lowest first, unless asked otherwise. */
export const rewardTierListQuery = pagingQuery(['position', 'name', 'code', 'created_on']).extend({
  order: zAnyCase(['ASC', 'DESC'])
    .default('ASC'),
  ...nameCodeQuery,
});

export const rewardTierItem = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  color: z.string(),
  position: z.number().int(),
  period_value_units: z.number(),
  lifetime_value_units: z.number(),
  ...stamps,
});

export const rewardTierList = contentList(rewardTierItem);

// ---------------------------------------------------------------- reward offers

const validity = z
  .strictObject({
    period: z.number().int().min(1).max(1000),
    uot: z.enum(UNITS_OF_TIME),
  })
  .meta({ description: 'How long the awarded credit stays spendable: `period` units of time after the purchase. Absent or null: no expiry.' });

const offerFields = {
  name,
  code: code.nullish(),
  description: description.nullish(),
  life_cycle_state: z.enum(OFFER_STATES),
  award_type: z.enum(AWARD_TYPES).meta({ description: 'PERCENTAGE of the qualifying amount, or a FIXED amount per purchase.' }),
  award_value: zPositiveAmount.meta({ description: 'Greater than 0; at most 100 for PERCENTAGE.' }),
  minimum_purchase: zNonNegativeAmount.meta({ description: 'Qualifying amount a purchase must reach; absent or null: any.' }),
  products,
  merchants,
  spend_condition_id: zId.meta({ description: 'A spend condition restricting the awarded credit.' }),
  validity,
  voucher_type_id: zId.meta({ description: 'A voucher type the award issues.' }),
  valid_from: zEpoch.meta({ description: 'Start of the window in which the offer awards (inclusive); absent or null: open.' }),
  valid_to: zEpoch.meta({ description: 'End of the window (exclusive), later than valid_from; absent or null: open.' }),
};

export const rewardOfferCreateBody = z.strictObject({
  reward_scheme_id: zId.meta({ description: 'The scheme the offer belongs to (fixed for the life of the offer).' }),
  name: offerFields.name,
  code: offerFields.code,
  description: offerFields.description,
  life_cycle_state: offerFields.life_cycle_state.default('ACTIVE'),
  award_type: offerFields.award_type,
  award_value: offerFields.award_value,
  minimum_purchase: offerFields.minimum_purchase.nullish(),
  products: offerFields.products.optional(),
  merchants: offerFields.merchants.optional(),
  spend_condition_id: offerFields.spend_condition_id.nullish(),
  validity: offerFields.validity.nullish(),
  voucher_type_id: offerFields.voucher_type_id.nullish(),
  valid_from: offerFields.valid_from.nullish(),
  valid_to: offerFields.valid_to.nullish(),
});

/** Partial; null clears an optional field; a list given replaces the list. The scheme does not change. */
export const rewardOfferUpdateBody = z.strictObject({
  name: offerFields.name.optional(),
  code: offerFields.code,
  description: offerFields.description,
  life_cycle_state: offerFields.life_cycle_state.optional(),
  award_type: offerFields.award_type.optional(),
  award_value: offerFields.award_value.optional(),
  minimum_purchase: offerFields.minimum_purchase.nullish(),
  products: offerFields.products.optional(),
  merchants: offerFields.merchants.optional(),
  spend_condition_id: offerFields.spend_condition_id.nullish(),
  validity: offerFields.validity.nullish(),
  voucher_type_id: offerFields.voucher_type_id.nullish(),
  valid_from: offerFields.valid_from.nullish(),
  valid_to: offerFields.valid_to.nullish(),
});

export const rewardOfferListQuery = pagingQuery(['name', 'code', 'created_on', 'valid_from']).extend({
  ...nameCodeQuery,
  reward_scheme_id: zId.optional(),
  life_cycle_state: z.enum(OFFER_STATES).optional(),
});

export const rewardOfferItem = z.object({
  ...describedItem,
  reward_scheme: coded,
  life_cycle_state: z.enum(OFFER_STATES),
  award_type: z.enum(AWARD_TYPES),
  award_value: z.number(),
  minimum_purchase: z.number().nullable(),
  products: z.array(z.object({ id_type: z.enum(PRODUCT_ID_TYPES), id: z.string(), name: z.string(), description: z.string().nullable() })),
  merchants: z.array(coded),
  spend_condition: named.nullable(),
  validity: z.object({ period: z.number().int(), uot: z.enum(UNITS_OF_TIME) }).nullable(),
  voucher_type: named.nullable(),
  valid_from: z.number().int().nullable(),
  valid_to: z.number().int().nullable(),
  ...stamps,
});

export const rewardOfferList = contentList(rewardOfferItem);

// ---------------------------------------------------------------- voucher types

const voucherFields = {
  value_type: z.enum(VOUCHER_VALUE_TYPES).meta({ description: 'FIXED: worth `value`; VARIABLE: the value is chosen at use, between minimum_value and maximum_value.' }),
  value: zPositiveAmount.meta({ description: 'Required for FIXED (greater than 0); not allowed for VARIABLE.' }),
  minimum_value: zPositiveAmount.meta({ description: 'Required for VARIABLE (greater than 0, at most maximum_value); not allowed for FIXED.' }),
  maximum_value: zPositiveAmount.meta({ description: 'Required for VARIABLE (at least minimum_value); not allowed for FIXED.' }),
  extra_added_value: zNonNegativeAmount.meta({ description: 'Added on top of the value when the voucher is used; absent or null: none.' }),
  currency_code: zCurrency.meta({ description: "ISO 4217; default: the organisation's system currency (/settings)." }),
  validity_period: z.number().int().min(1).max(1000).meta({ description: 'A voucher expires validity_period units of time after it is issued.' }),
  validity_uot: z.enum(UNITS_OF_TIME),
  classification: z.enum(VOUCHER_CLASSIFICATIONS),
  category: z.enum(VOUCHER_CATEGORIES).meta({ description: 'IDENTIFIES_CUSTOMER: only its contact may use it; BEARER: whoever holds it.' }),
};

export const voucherTypeCreateBody = z.strictObject({
  name,
  code: code.nullish(),
  description: description.nullish(),
  value_type: voucherFields.value_type,
  value: voucherFields.value.nullish(),
  minimum_value: voucherFields.minimum_value.nullish(),
  maximum_value: voucherFields.maximum_value.nullish(),
  extra_added_value: voucherFields.extra_added_value.nullish(),
  currency_code: voucherFields.currency_code.optional(),
  validity_period: voucherFields.validity_period,
  validity_uot: voucherFields.validity_uot,
  classification: voucherFields.classification,
  category: voucherFields.category,
});

/** Partial; changing value_type clears the values of the former type. */
export const voucherTypeUpdateBody = z.strictObject({
  name: name.optional(),
  code: code.nullish(),
  description: description.nullish(),
  value_type: voucherFields.value_type.optional(),
  value: voucherFields.value.nullish(),
  minimum_value: voucherFields.minimum_value.nullish(),
  maximum_value: voucherFields.maximum_value.nullish(),
  extra_added_value: voucherFields.extra_added_value.nullish(),
  currency_code: voucherFields.currency_code.optional(),
  validity_period: voucherFields.validity_period.optional(),
  validity_uot: voucherFields.validity_uot.optional(),
  classification: voucherFields.classification.optional(),
  category: voucherFields.category.optional(),
});

export const voucherTypeListQuery = pagingQuery(['name', 'code', 'created_on']).extend({
  ...nameCodeQuery,
  value_type: z.enum(VOUCHER_VALUE_TYPES).optional(),
  classification: z.enum(VOUCHER_CLASSIFICATIONS).optional(),
  category: z.enum(VOUCHER_CATEGORIES).optional(),
});

export const voucherTypeItem = z.object({
  ...describedItem,
  value_type: z.enum(VOUCHER_VALUE_TYPES),
  value: z.number().nullable(),
  minimum_value: z.number().nullable(),
  maximum_value: z.number().nullable(),
  extra_added_value: z.number().nullable(),
  currency_code: z.string(),
  validity_period: z.number().int(),
  validity_uot: z.enum(UNITS_OF_TIME),
  classification: z.enum(VOUCHER_CLASSIFICATIONS),
  category: z.enum(VOUCHER_CATEGORIES),
  ...stamps,
});

export const voucherTypeList = contentList(voucherTypeItem);
