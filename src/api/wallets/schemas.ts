// Wallets, journals and the contact's money reads (spec 2.3, 2.4, 2.5, 2.11, 4.1, 4.3).
import { z } from 'zod';
import { contactParams } from '../contacts/schemas';
import { limitRules } from '../money/settings/schemas';
import { zAmount, zAnyCase, zBool, zCurrency, zEpoch, zId, zPositiveAmount } from '../validation';
import { customFieldsBody } from '../custom-fields/schemas';

const autoTopup = z.strictObject({
  threshold: zAmount.meta({ description: 'A debit that leaves the balance below this starts a top-up.' }),
  amount: zPositiveAmount.meta({ description: 'What one top-up credits.' }),
  payment_method: z.enum(['CARD', 'WALLET', 'ONLINE', 'ACCOUNT']),
  payment_method_id: zId.optional().meta({ description: "The contact's payment method; default: the primary one." }),
});

export const walletCreateBody = z.strictObject({
  code: z.string().regex(/^\d{16}$/, 'must be 16 digits').optional().meta({ description: 'Generated when absent; unique in the organisation.' }),
  currency_code: zCurrency.optional().meta({ description: "Default: the account's currency." }),
  minimum_balance: zAmount.optional().meta({ description: "Default: the settings' default_wallet_minimum_balance." }),
  limit_rules: limitRules.optional().meta({ description: "Default: the settings' global rules." }),
  auto_topup: autoTopup.optional(),
  custom_fields: customFieldsBody.optional(),
});

export const walletUpdateBody = z.strictObject({
  minimum_balance: zAmount.nullable().optional().meta({ description: "null: back to the settings' default." }),
  limit_rules: limitRules.nullable().optional().meta({ description: "null: back to the settings' global rules." }),
  auto_topup: autoTopup.nullable().optional(),
});

export const walletActionBody = z.strictObject({ action: z.enum(['EFFECTIVE', 'SUSPENDED', 'CANCELLED']) });
export const walletCancelBody = z.strictObject({ custom_fields: customFieldsBody.optional() });

export const journalBody = z.strictObject({
  wallet_id: zId,
  amount: zPositiveAmount,
  type: zAnyCase(['CREDIT', 'DEBIT']).meta({ description: 'CREDIT or DEBIT, any letter case.' }),
  description: z.string().max(500).optional(),
  spend_condition_id: zId.optional().meta({ description: 'A credit: funds restricted to it. A debit: spends such funds first.' }),
  valid_from: zEpoch.optional().meta({ description: 'Credits only: not spendable before.' }),
  valid_to: zEpoch.optional().meta({ description: 'Credits only: expires at.' }),
  created_on: zEpoch.optional().meta({ description: "The transaction's business date; default: now." }),
  allow_negative_balance: zBool.optional().meta({ description: 'A debit may take the wallet below its minimum balance.' }),
});

export const walletParams = z.object({ id: zId });
export const voidParams = contactParams.extend({ transaction_id: zId });
export const voidBody = z.strictObject({ custom_fields: customFieldsBody.optional() });

