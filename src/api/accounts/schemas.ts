// Requests of the account operations (spec 2.3, 4.2); docs/accounts.md decides what spec.md
// leaves open. Responses are in responses.ts.
import { z } from 'zod';
import { customFieldsBody, customFieldsOut } from '../custom-fields/schemas';
import { namedList } from '../lists';
import { limitRuleOut } from '../money/settings/schemas';
import { pagingQuery, postalAddressOut, zBool, zCurrency, zId, zNonNegativeAmount } from '../validation';

const name = z.string().trim().min(1).max(200);
const creditLimit = zNonNegativeAmount.meta({ description: "Within the settings' credit_limit_min and credit_limit_max; null: none." });

export const accountCreateBody = z.strictObject({
  name: name.optional(),
  classification_id: zId.optional(),
  currency_code: zCurrency.optional().meta({ description: "Default: the settings' system_currency_code." }),
  is_primary: zBool.optional().meta({ description: "true: this account becomes the contact's primary one. A contact's first account is primary anyway." }),
  billing_address_id: zId.nullable().optional().meta({ description: "An address of the contact. Default: the contact's primary address; null: none." }),
  credit_limit: creditLimit.nullable().optional(),
  custom_fields: customFieldsBody.optional(),
});

/** Partial; null clears a nullable field. */
export const accountUpdateBody = z.strictObject({
  name: name.nullable().optional(),
  classification_id: zId.nullable().optional(),
  is_primary: zBool.optional().meta({ description: 'true makes this account primary (the other one stops being primary). false is refused on the primary account: a contact keeps one.' }),
  billing_address_id: zId.nullable().optional(),
  credit_limit: creditLimit.nullable().optional(),
  custom_fields: customFieldsBody.optional(),
});

export const ACCOUNT_SORT_FIELDS = ['number', 'name', 'created_on'] as const;

export const accountListQuery = pagingQuery(ACCOUNT_SORT_FIELDS).extend({
  primary_only: zBool.optional().meta({ description: 'true: only the primary account.' }),
});

export const FUNDING_SCOPES = ['PARTIALLY', 'FULLY'] as const;

const idList = (what: string) => z.array(zId).max(100).meta({ description: `GUIDs of ${what} of this organisation. Only with PARTIALLY.` });

/** What a group funds of a member; FULLY funds everything, PARTIALLY only what the lists name. */
const funding = {
  funding_scope: z.enum(FUNDING_SCOPES),
  products: idList('products').optional(),
  product_types: idList('product types').optional(),
  product_families: idList('product families').optional(),
};

export const memberCreateBody = z.strictObject({ member_account_id: zId, ...funding });

/** Partial; a list given replaces the list. */
export const memberUpdateBody = z.strictObject({ ...funding, funding_scope: funding.funding_scope.optional() });

export const memberParams = z.object({ id: zId, member_id: zId.meta({ description: 'The member record id (as listed).' }) });

// ---------------------------------------------------------------- responses

const idName = z.object({ id: z.string(), name: z.string() });
const money = z.number();

export const accountItem = z.object({
  id: z.string(),
  is_primary: z.boolean(),
  name: z.string().nullable(),
  number: z.string(),
  life_cycle_state: z.string(),
  currency_code: z.string(),
  classification: idName.nullable(),
  balance: money.meta({ description: "The account's own (receivable) book; wallets have their own balances." }),
  credit_limit: money.nullable(),
  overdue_amount: money.meta({ description: 'Unpaid past due: 0 while no invoices exist.' }),
  billing_address_id: z.string().nullable(),
  wallet: z
    .object({ id: z.string(), code: z.string(), balance: money, currency_code: z.string(), life_cycle_state: z.string() })
    .nullable()
    .meta({ description: 'The first wallet, by creation, that is not cancelled.' }),
  custom_fields: customFieldsOut,
});

export const accountList = namedList('accounts', accountItem);

const financialWallet = z.object({
  id: z.string(),
  code: z.string(),
  balance: money,
  commerce_balance: money,
  open_balance: money,
  life_cycle_state: z.string(),
  minimum_balance: money.meta({ description: "The wallet's, else the settings' default_wallet_minimum_balance." }),
  limit_rules: z.array(limitRuleOut).meta({ description: "The wallet's, else the settings' global rules." }),
  auto_topup: z.object({ threshold: money, amount: money, payment_method: z.string(), payment_method_id: z.string().nullable() }).nullable(),
});

const billingAddress = z.object({ id: z.string(), ...postalAddressOut });

export const accountFinancials = z.object({
  name: z.string().nullable(),
  number: z.string(),
  is_primary: z.boolean(),
  life_cycle_state: z.string(),
  currency_code: z.string(),
  balance: money,
  overdue_amount: money,
  credit_limit: money.nullable(),
  accounting_period_id: z.string().nullable().meta({ description: 'The latest closed accounting period; null before the first close.' }),
  accounting_period_name: z.string().nullable(),
  opening_balance: money.meta({ description: 'Brought forward from the latest closed period (0 without one).' }),
  classification: idName.nullable(),
  wallet: z.array(financialWallet).meta({ description: 'Every wallet of the account, by creation.' }),
  billing_address: billingAddress.nullable(),
  custom_fields: customFieldsOut,
});

export const memberItem = z.object({
  id: z.string().meta({ description: 'The member record id (member_id in paths).' }),
  member_account_id: z.string(),
  number: z.string().meta({ description: "The member account's number." }),
  funding_scope: z.enum(FUNDING_SCOPES),
  products: z.array(z.object({ id: z.string(), sku: z.string() })),
  product_types: z.array(idName),
  product_families: z.array(idName),
});

export const memberList = z.object({ members: z.array(memberItem) });
