// Response shapes of the wallet and money operations (spec 2.4, 2.11).
import { z } from 'zod';
import { contentList } from '../lists';
import { spendConditionItem } from '../spend-conditions/schemas';
import { pagingQuery, zBool, zEpochQuery, zId } from '../validation';

const amount = z.number();
const altAmount = z.number().nullable();

export const contactWallet = z.object({
  id: z.string(), account_id: z.string(), number: z.string(), life_cycle_state: z.string(),
  balance: amount, alternative_balance: altAmount, currency_code: z.string(), alternative_currency_code: z.string().nullable(),
  conditional_balance: amount, conditional_alternative_balance: altAmount,
  unconditional_balance: amount, unconditional_alternative_balance: altAmount,
  commerce_balance: amount, open_balance: amount,
  amount_on_hold: amount, alternative_amount_on_hold: altAmount,
});

export const walletTransaction = z.object({
  id: z.string(), account_id: z.string(), wallet_id: z.string().nullable(), number: z.string(),
  classification: z.string(), life_cycle_state: z.string(),
  amount, currency_code: z.string().nullable(), extra_added_amount: amount.nullable(),
  transaction_date: z.number(), expiration_date: z.number().nullable(), created_by: z.object({ id: z.string() }), created_on: z.number(),
});
export const walletTransactionList = contentList(walletTransaction);

export const walletTransactionQuery = pagingQuery(['created_on', 'amount', 'number', 'transaction_date']).extend({
  created_on_from: zEpochQuery.optional(),
  created_on_to: zEpochQuery.optional(),
  classification: z.enum(['CREDIT', 'DEBIT', 'TRANSFER', 'VOID', 'EXPIRY', 'TOPUP', 'AWARD', 'SPEND', 'RETURN']).optional(),
  life_cycle_state: z.enum(['POSTED', 'VOID']).optional(),
});

const expiration = z.object({ zero_to_thirty: amount, thirty_to_sixty: amount, sixty_to_ninety: amount, ninety_plus: amount });
export const balanceItem = spendConditionItem
  .pick({ organisations: true, products: true, timings: true })
  .extend({ amount, id: z.string().nullable(), name: z.string().nullable(), expiration: expiration.optional() });
export const balanceList = z.array(balanceItem);

// Sorted by amount, largest first (ASC reverses); `sort` takes only `amount`.
export const balanceQuery = pagingQuery(['amount']).extend({
  spend_condition_id: zId.optional(),
  include_expiration: zBool.optional(),
});
