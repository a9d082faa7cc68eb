import { contentList } from '../../lists';
import { z } from 'zod';
import { CARD_BRANDS, CARD_GATEWAYS, FUNDING_TYPES, PAYMENT_METHOD_TYPES } from '../../../domain/contacts/payment-methods/kinds';
import { zBool, zCountry, zId } from '../../validation';

const text = (max: number) => z.string().trim().min(1).max(max);
/** JSON integer or a string of digits (payloads send both). */
/** The document's reading of a bounded zInt: the number, or its digits. */
const integerText = (minimum: number, maximum: number) => ({
  anyOf: [{ type: 'integer', minimum, maximum }, { type: 'string', pattern: `^\\d{${String(minimum).length},${String(maximum).length}}$` }],
});
const zInt = z.union([z.number().int(), z.string().regex(/^\d{1,9}$/, 'must be an integer').transform(Number)]);

export const contactRefParams = z.object({
  id: z.string().min(1).max(200).meta({ description: 'Contact GUID or code. A GUID matches the id or the code; any other value is a code.' }),
});
export const paymentMethodParams = contactRefParams.extend({ payment_method_id: zId });

export const credentialsBody = z.strictObject({
  username: text(254)
    .regex(/^\S+$/, 'must not contain spaces')
    .meta({ description: 'Unique in the organisation, case-insensitive (stored lower-cased).' }),
  password: z
    .string()
    .min(8, 'must have at least 8 characters')
    .max(256, 'must have at most 256 characters')
    .meta({ description: '8-256 characters. Only an argon2id hash is stored; it is never returned.' }),
});

const bank = z.strictObject({
  sort_code: text(20).optional(),
  account_number: text(34).optional(),
  bank: text(200).optional(),
  branch: text(200).optional(),
  iban: text(50).optional().meta({ description: 'Printed or electronic form; checked (country, length, mod-97) and stored in electronic form.' }),
});

const card = z.strictObject({
  name: text(200).optional(),
  brand: z.enum(CARD_BRANDS).optional().meta({ description: 'Card network code.' }),
  card_number: z.string().min(1).max(40).meta({
    description: 'Masked number, e.g. `411111******1111`: at most the first 6 and exactly the last 4 digits visible. A full card number is refused (400).',
  }),
  first6: z.string().regex(/^\d{6}$/, 'must be 6 digits').optional(),
  last4: z.string().regex(/^\d{4}$/, 'must be 4 digits').optional(),
  fingerprint: text(500).optional().meta({ description: 'Opaque hash from the payment processor, for comparing cards.' }),
  expiration_month: zInt.pipe(z.number().min(1).max(12)).meta(integerText(1, 12)),
  expiration_year: zInt.pipe(z.number().min(1000).max(9999)).meta(integerText(1000, 9999)),
  is_default: zBool.optional().meta({ description: 'Same as the top-level is_default, which wins when both are given.' }),
  funding_type: z.enum(FUNDING_TYPES).optional(),
  classification: z.strictObject({ id: text(100).optional(), name: text(200).optional() }).optional().meta({
    description: 'Free card classification reference, stored as given.',
  }),
});

const cardHolderDetails = z.strictObject({
  card_holder_name: text(200).optional(),
  address_line_1: text(200).optional(),
  address_line_2: text(200).optional(),
  address_city: text(100).optional(),
  address_zip: text(20).optional(),
  address_state: text(100).optional(),
  address_country: zCountry.optional(),
  use_billing_address: zBool.optional().meta({
    description: "true copies the billing address of the contact's primary account (else its primary address) into the address fields.",
  }),
});

const cardGatewayToken = z.strictObject({
  gateway: z.enum(CARD_GATEWAYS),
  gateway_code: text(100).optional().meta({ description: 'Implementation code; required when gateway is GENERIC, refused otherwise.' }),
  token: text(500),
});

export const paymentMethodBody = z.strictObject({
  id: zId.optional(),
  payment_method_type: z.enum(PAYMENT_METHOD_TYPES),
  notes: z.string().max(2000).optional(),
  is_default: zBool.optional().meta({ description: "true makes this the contact's only default. Default: true for the contact's first method." }),
  bank: bank.optional().meta({ description: 'Required when BANK: account_number or iban.' }),
  card: card.optional().meta({ description: 'Required when CARD.' }),
  card_holder_details: cardHolderDetails.optional(),
  card_gateway_token: z.array(cardGatewayToken).min(1).max(10).optional(),
  payment_gateway_token: text(200).optional().meta({ description: 'Account username at the gateway; required for online gateway types.' }),
});

const nullableText = z.string().nullable();

const paymentMethodItem = z.object({
  id: z.string(),
  payment_method_type: z.enum(PAYMENT_METHOD_TYPES),
  bank: z.array(z.object({ sort_code: nullableText, account_number: nullableText, bank: nullableText, branch: nullableText, iban: nullableText })),
  payment_gateway_token: nullableText.meta({ description: 'Account username, for online gateway methods.' }),
  card: z
    .object({
      name: nullableText,
      brand_name: nullableText,
      card_number: z.string(),
      first6: nullableText,
      last4: z.string(),
      expiration_month: z.number().int(),
      expiration_year: z.number().int(),
      funding_type: z.enum(FUNDING_TYPES).nullable(),
      classification: z.object({ id: nullableText, name: nullableText }).nullable(),
    })
    .nullable(),
  card_holder_details: z
    .object({
      card_holder_name: nullableText,
      address_line_1: nullableText,
      address_line_2: nullableText,
      address_city: nullableText,
      address_zip: nullableText,
      address_state: nullableText,
      address_country: nullableText,
      use_billing_address: z.boolean(),
    })
    .nullable(),
  accounts: z.array(z.object({ id: z.string(), number: z.string(), name: nullableText })),
  is_default: z.boolean(),
  notes: nullableText,
  created_on: z.number().int(),
});

export type PaymentMethodItem = z.input<typeof paymentMethodItem>;
export const paymentMethodList = contentList(paymentMethodItem);
