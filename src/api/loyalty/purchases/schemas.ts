// Purchases, their returns, the event record and the activity feed (spec 2.12, 4.1, 4.8, 4.9;
// docs/loyalty.md).
import { z } from 'zod';
import { contactParams } from '../../contacts/schemas';
import { customFieldsBody, customFieldsOut } from '../../custom-fields/schemas';
import { documentedRule, exactlyOneOf, pagingQuery, whenParsed, zCurrency, zEpoch, zEpochQuery, zId, zNonNegativeAmount, zPositiveAmount } from '../../validation';
import { secret } from '../../secret-fields';


/** A reference by id or code: exactly one of the two. */
const idOrCode = documentedRule(
  z
    .strictObject({ id: zId.optional(), code: z.string().min(1).max(100).optional() })
    .refine((v) => (v.id === undefined) !== (v.code === undefined), { message: 'give id or code, not both', ...whenParsed }),
  exactlyOneOf('id', 'code'),
);

const product = z.strictObject({
  product_sku: z.string().min(1).max(100),
  net_amount: zNonNegativeAmount,
  tax_amount: zNonNegativeAmount,
  total_amount: zNonNegativeAmount.meta({ description: 'net_amount + tax_amount, exactly.' }),
  quantity: zPositiveAmount.optional().meta({ description: 'Default 1.' }),
});

const contactRef = {
  contact_id: z.string().min(1).max(100).optional().meta({ description: "The contact's id or code; this or cim." }),
  cim: z.string().min(1).max(100).optional().meta({ description: "A contact identification medium (docs/loyalty.md \"Identifying the contact\"); this or contact_id." }),
};

/** The contact is named once: by contact_id or by cim (src/domain/loyalty/purchases/resolve.ts). */
const oneContact = exactlyOneOf('contact_id', 'cim');

export const purchaseBody = documentedRule(z.strictObject({
  id: zId.optional().meta({ description: 'Generated when absent.' }),
  ...contactRef,
  reference_number: z.string().min(1).max(100).meta({ description: "The external system's reference, unique in the organisation." }),
  classification: idOrCode.optional(),
  payment_medium_identifier: z.string().max(100).optional(),
  performed_on: zEpoch.optional().meta({ description: 'Default: now.' }),
  currency_code: zCurrency.optional().meta({ description: "Default and only accepted value: the primary account's currency." }),
  products: z.array(product).min(1).max(500),
  spend_request: z
    .strictObject({
      amount: zNonNegativeAmount.optional().meta({ description: 'Spent from the wallet, in the wallet currency.' }),
      alternative_amount: zNonNegativeAmount.optional().meta({ description: 'Spent from the wallet in the alternative currency (points), at the settings rate.' }),
    })
    .optional(),
  merchant_tap: idOrCode.optional(),
  outlet_tap: idOrCode.optional(),
  custom_fields: customFieldsBody.optional(),
}), oneContact);

export const returnBody = documentedRule(z.strictObject({
  ...contactRef,
  reference_number: z.string().min(1).max(100),
  amount: zPositiveAmount,
  currency_code: zCurrency.optional(),
  merchant_tap: idOrCode.optional(),
  outlet_tap: idOrCode.optional(),
}), oneContact);

export const purchaseListQuery = pagingQuery(['performed_on', 'created_on', 'number', 'total_amount', 'reference_number']).extend({
  contact_id: z.string().min(1).max(100).optional(),
  reference_number: z.string().min(1).max(100).optional(),
  performed_on_from: zEpochQuery.optional().meta({ description: 'Absent: the last 10 purchases are answered.' }),
  performed_on_to: zEpochQuery.optional(),
  life_cycle_state: z.enum(['POSTED', 'CANCELLED']).optional(),
});

const money = z.number();

export const purchaseItem = z.object({
  id: z.string(),
  number: z.string(),
  reference_number: z.string(),
  life_cycle_state: z.string(),
  contact_id: z.string(),
  account_id: z.string(),
  currency_code: z.string(),
  total_amount: money,
  returned_amount: money,
  performed_on: z.number(),
  performed_by_unit_id: z.string().nullable(),
  performed_by_unit_name: z.string().nullable(),
  classfication_name: z.string().nullable().meta({ description: "Spelled as spec.md spells it." }),
  created_on: z.number(),
  custom_fields: customFieldsOut,
});

const issuedVoucher = z.object({ id: z.string(), number: z.string(), secret_number: secret('shown_once', z.string().nullable()) }).meta({ description: 'A voucher an award issued; its secret number is answered here only.' });

export const purchaseResponse = z.object({
  id: z.string(),
  vouchers: z.array(issuedVoucher).nullable().optional().meta({ description: "Vouchers the purchase's awards issued, with their secret numbers (absent when none; null on an Idempotency-Key replay)." }),
});

export const eventBody = z.strictObject({
  type: z.string().meta({ description: 'PURCHASE; other types are refused until they exist.' }),
  purchase: purchaseBody.optional().meta({ description: 'The purchase (POST /purchases body) when type is PURCHASE.' }),
});

export const feedParams = contactParams;
export const feedQuery = pagingQuery(['created_date']).extend({
  activity_type: z.string().optional().meta({ description: 'Comma-separated: PURCHASE, AWARD, SPEND, TOPUP, TRANSFER, VOID, CREDIT, DEBIT, RETURN, EXPIRY, VOUCHER_USE.' }),
  created_date: z
    .union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD or epoch seconds'), zEpochQuery])
    .optional()
    .meta({ description: 'The day (UTC) of the activity: YYYY-MM-DD, or epoch seconds of any moment in it.' }),
});

export const purchaseParams = z.object({ id: zId });

const book = z.object({ id: z.string(), number: z.string(), type: z.enum(['WALLET', 'ACCOUNT']) }).nullable();

export const feedItem = z.object({
  id: z.string(),
  number: z.string().nullable(),
  reference_number: z.string().nullable(),
  code: z.string().nullable(),
  state: z.string(),
  created_date: z.number(),
  activity_type: z.string(),
  direction: z.enum(['INCOMING', 'OUTGOING']),
  notes: z.string().nullable(),
  type: z.string().nullable(),
  total_amount: money.nullable(),
  currency: z.string().nullable(),
  due_date: z.number().nullable(),
  reward_offer: z.string().nullable(),
  merchant_name: z.string().nullable(),
  topup_entity: book,
  transfer_origin_entity: book,
  transfer_dest_entity: book,
  referred_by_account: z.object({ id: z.string(), name: z.string().nullable(), number: z.string() }).nullable(),
});

const unitRef = z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable();

export const eventRecord = z.object({
  id: z.string(),
  type: z.string(),
  business: z.object({ id: z.string(), name: z.string() }),
  submitted_on: z.number(),
  submitted_day: z.string(),
  contact: z.object({ id: z.string(), code: z.string().nullable(), name: z.string().nullable() }),
  financials: z.object({
    account: z.object({ id: z.string(), number: z.string() }),
    wallet: z.object({ id: z.string(), code: z.string(), balance: money }).nullable(),
  }),
  merchant: unitRef,
  venue: unitRef,
  subsidiary: unitRef,
  location: z.record(z.string(), z.unknown()).nullable(),
  transaction: z.object({
    id: z.string(), number: z.string(), reference_number: z.string(), life_cycle_state: z.string(),
    net_amount: money, tax_amount: money, total_amount: money, currency_code: z.string(), performed_on: z.number(),
    classification: z.object({ id: z.string(), name: z.string() }).nullable(),
  }),
  initiating_transaction: z.null(),
  award: z.object({
    total_amount: money,
    awards: z.array(z.object({ transaction_id: z.string().nullable(), reward_offer: z.object({ id: z.string(), name: z.string() }), amount: money, voucher_id: z.string().nullable() })),
  }),
  spend: z.object({ transaction_id: z.string(), amount: money }).nullable(),
  rewards_sign_up: z.array(z.object({ id: z.string(), name: z.string(), signed_up_on: z.number() })),
  payment_information: z.object({ payment_method_type: z.string(), brand: z.string().nullable(), funding_type: z.string().nullable() }).nullable(),
  communication: z.null(),
  order: z.null(),
  vouchers: purchaseResponse.shape.vouchers,
  products: z.array(z.object({
    product_sku: z.string(), product: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
    net_amount: money, tax_amount: money, total_amount: money, quantity: money,
  })),
});
