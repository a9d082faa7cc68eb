// GET|PUT /settings (API-CONVENTIONS "Organisations and reference data"): the organisation's
// money settings. The limit rule schema is shared with the wallets, which take the same rules.
import { z } from 'zod';
import { timeZoneName } from '../../../domain/analytics/time-zone';
import { Money } from '../../../domain/money';
import { whenParsed, zAmount, zCurrency, zNonNegativeAmount } from '../../validation';


/**
 * A wallet limit rule (spec 2.3). `limit_amount` is the wallet create example's name for
 * `maximum_amount`; both may be given only if equal. A rule limits something: at least one amount.
 */
export const limitRule = z
  .strictObject({
    period: z.enum(['DAILY', 'ANNUAL']),
    transaction_type: z.enum(['DEBIT', 'TRANSFER']),
    minimum_amount: zNonNegativeAmount.nullish().meta({ description: 'The least one transaction may move.' }),
    maximum_amount: zNonNegativeAmount.nullish().meta({ description: 'The most all transactions of the period may move together.' }),
    limit_amount: zNonNegativeAmount.nullish().meta({ description: 'Alias of maximum_amount.' }),
  })
  .superRefine((r, ctx) => {
    if (r.limit_amount != null && r.maximum_amount != null && !r.limit_amount.eq(r.maximum_amount)) {
      ctx.addIssue({ code: 'custom', path: ['limit_amount'], message: 'differs from maximum_amount (it is its alias)' });
    }
    const maximum = r.maximum_amount ?? r.limit_amount;
    if (r.minimum_amount == null && maximum == null) {
      ctx.addIssue({ code: 'custom', path: ['maximum_amount'], message: 'give minimum_amount, maximum_amount or both' });
    } else if (r.minimum_amount != null && maximum != null && r.minimum_amount.gt(maximum)) {
      ctx.addIssue({ code: 'custom', path: ['maximum_amount'], message: 'must not be less than minimum_amount' });
    }
  }, whenParsed)
  .transform((r) => ({
    period: r.period,
    transaction_type: r.transaction_type,
    minimum_amount: r.minimum_amount ?? null,
    maximum_amount: r.maximum_amount ?? r.limit_amount ?? null,
  }));

export const limitRules = z.array(limitRule).max(20);

/** Alternative units per system unit: exact, greater than 0, at most 8 decimal places. */
export const zRate = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/)])
  .transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v;
    if (!/^\d{1,11}(\.\d{1,8})?$/.test(text) || new Money(text).lte(0)) {
      ctx.addIssue({ code: 'custom', message: 'must be greater than 0, with at most 11 integer digits and 8 decimal places' });
      return z.NEVER;
    }
    return new Money(text);
  })
  .meta({ description: 'Alternative units per one system unit, e.g. 10 points per EUR.' });

/** Points, stamps, miles ... or an ISO 4217 currency. */
const alternativeCode = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,10}$/, 'must be 1-10 letters, digits or _')
  .transform((v) => v.toUpperCase());

/** An IANA time zone name (Europe/Berlin, UTC), as Intl knows it; docs/analytics.md "Time zone". */
const zTimeZone = z
  .string()
  .max(64)
  .transform((v, ctx) => {
    const zone = timeZoneName(v);
    if (zone === null) {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone name such as Europe/Berlin or UTC' });
      return z.NEVER;
    }
    return zone;
  });

/** Partial: only the fields given change; null clears a nullable one. */
export const settingsBody = z.strictObject({
  system_currency_code: zCurrency.optional(),
  alternative_currency_code: alternativeCode.nullable().optional(),
  alternative_currency_rate: zRate.nullable().optional(),
  credit_limit_min: zNonNegativeAmount.nullable().optional().meta({ description: 'Least credit limit an account may have; null: no bound.' }),
  credit_limit_max: zNonNegativeAmount.nullable().optional().meta({ description: 'Greatest credit limit an account may have; null: no bound.' }),
  default_wallet_minimum_balance: zAmount.optional().meta({ description: 'Minimum balance of a wallet that sets none.' }),
  limit_rules: limitRules.optional().meta({ description: 'Global limit rules: apply to wallets without rules of their own. Replaces the list.' }),
  time_zone: zTimeZone.optional().meta({ description: 'IANA time zone of the hours, days, weeks and months of analytics (default UTC; docs/analytics.md).' }),
});

export const limitRuleOut = z.object({
  period: z.enum(['DAILY', 'ANNUAL']),
  transaction_type: z.enum(['DEBIT', 'TRANSFER']),
  minimum_amount: z.number().nullable(),
  maximum_amount: z.number().nullable(),
});

export const settingsResponse = z.object({
  system_currency_code: z.string(),
  alternative_currency_code: z.string().nullable(),
  alternative_currency_rate: z.number().nullable(),
  credit_limit_min: z.number().nullable(),
  credit_limit_max: z.number().nullable(),
  default_wallet_minimum_balance: z.number(),
  limit_rules: z.array(limitRuleOut),
  time_zone: z.string(),
  updated_on: z.number().int().nullable().meta({ description: 'Null while the organisation uses the defaults.' }),
});
