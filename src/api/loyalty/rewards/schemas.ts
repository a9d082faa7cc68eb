// The reward attributes of a contact's primary account (spec 2.6, 4.4) and the merchants list
// (spec 2.13, 4.4); docs/rewards.md decides what spec.md leaves open.
import { z } from 'zod';
import { contentList } from '../../lists';
import { merchantCreative } from '../../network/creatives/schemas';
import { distinct, pagingQuery, whenParsed, zBool, zEmail, zEpoch, zId, zNonNegativeAmount } from '../../validation';

export const AUTO_SPEND_PREFERENCES = ['ALL_MERCHANT_PURCHASE', 'NEXT_MERCHANT_PURCHASE'] as const;


const emailAddress = zEmail;

/** Partial: a field given changes, an absent one stays; null clears a nullable one. */
export const autoSpendBody = z.strictObject({
  enable_automatic_spend: zBool.optional(),
  automatic_spend_preference: z.enum(AUTO_SPEND_PREFERENCES).nullable().optional().meta({
    description: 'ALL_MERCHANT_PURCHASE: every purchase at an allowed merchant; NEXT_MERCHANT_PURCHASE: the next purchase at an allowed merchant marked is_next_visit. Required while automatic spend is enabled.',
  }),
  minimum_wallet_balance: zNonNegativeAmount.nullable().optional().meta({ description: 'ALL_MERCHANT_PURCHASE: automatic spend keeps at least this much in the wallet. null: the wallet\'s own minimum only.' }),
  from_purchase_amount: zNonNegativeAmount.nullable().optional().meta({ description: 'ALL_MERCHANT_PURCHASE: only purchases whose total is at least this (inclusive). null: every purchase.' }),
});

/** PUT /accounts/{id}/rewards: partial. */
export const rewardsUpdateBody = z.strictObject({
  signed_up_on: zEpoch.nullable().optional().meta({ description: 'When the account signed up to rewards (epoch seconds); null clears it.' }),
  signed_up_organisation_id: zId.nullable().optional().meta({
    description: "The organisation itself or one of its business-network units (GET /organisations); another organisation's answers 400 naming this field. null clears it.",
  }),
  spending_blocked_status: zBool.optional().meta({
    description: 'true blocks spending from the wallet (purchases answer 409 SPENDING_BLOCKED) and records when and by whom; false lifts the block and clears both.',
  }),
  automatic_spend_settings: autoSpendBody.optional(),
  preferred_payment_method_id: zId.nullable().optional().meta({
    description: "A CARD or BANK (direct debit) payment method of the account's contact; null clears it.",
  }),
});

export const rewardMerchantsBody = z.strictObject({
  merchants: z
    .array(
      z.strictObject({
        organisation_id: zId.meta({ description: 'A unit of type MERCHANT of this organisation.' }),
        is_next_visit: zBool.optional().meta({
          description: 'Marks the merchant for NEXT_MERCHANT_PURCHASE. Absent: false for a merchant added, unchanged for one already allowed.',
        }),
      }),
    )
    .min(1)
    .max(100)
    .superRefine(distinct((m: { organisation_id: string }) => m.organisation_id, 'organisation_id'), whenParsed),
});

export const merchantParams = z.object({
  id: zId,
  merchant_id: zId.meta({ description: 'The allowed merchant: its organisation unit id.' }),
});

export const schemeSignUpBody = z.strictObject({
  reward_scheme_id: zId,
  email_address: emailAddress.optional().meta({ description: 'Required by EMAIL_DOMAIN schemes: its domain must be one of the scheme\'s allowed_domains (case-insensitive). Kept with the participation.' }),
  sign_up_code: z.string().trim().min(1).max(200).optional().meta({ description: "Required by CLOSE_LOOP_SIGN_UP schemes: one of the scheme's sign_up_codes (exact match). Not stored." }),
  signed_up_on: zEpoch.optional().meta({ description: 'Epoch seconds; default: now.' }),
});

export const schemeParams = z.object({ id: zId, reward_scheme_id: zId });

export const MERCHANT_SORT_FIELDS = ['name', 'code', 'created_on'] as const;

export const merchantListQuery = pagingQuery(MERCHANT_SORT_FIELDS).extend({
  reward_scheme_id: zId.optional().meta({ description: 'Only the merchants taking part in this reward scheme (400 naming it when the scheme does not exist).' }),
  include_schemes: zBool.optional().meta({ description: 'true adds schemes[] to each merchant.' }),
  include_venues: zBool.optional().meta({ description: 'true adds venues[] (the units of type VENUE directly below the merchant) to each merchant.' }),
});

// ---------------------------------------------------------------- responses

const idName = z.object({ id: z.string(), name: z.string() });
const tap = z.object({ id: z.string(), name: z.string(), code: z.string() });

export const rewardsRead = z.object({
  name: z.string().nullable(),
  number: z.string(),
  currency_code: z.string(),
  signed_up_on: z.number().int().nullable(),
  sign_up_organisation: idName.nullable().meta({ description: 'The organisation itself or one of its units; null when not recorded.' }),
  spending_blocked_status: z.boolean(),
  spending_blocked_date: z.number().int().nullable(),
  spending_blocked_user: z
    .object({ id: z.string(), email_address: z.string().nullable(), first_name: z.string().nullable(), last_name: z.string().nullable() })
    .nullable()
    .meta({ description: 'Who blocked spending: a user with their details, or an API key (its id; the other fields null). null while not blocked.' }),
  automatic_spend_settings: z.object({
    enable_automatic_spend: z.boolean(),
    automatic_spend_preference: z.enum(AUTO_SPEND_PREFERENCES).nullable(),
    minimum_wallet_balance: z.number().nullable(),
    from_purchase_amount: z.number().nullable(),
    allowed_merchants: z.array(idName.extend({ is_next_visit: z.boolean() })).meta({ description: 'In the order they were allowed.' }),
  }),
  reward_tier: z
    .object({
      id: z.string().nullable(),
      name: z.string().nullable(),
      color: z.string().nullable(),
      period_value_units: z.number().meta({ description: "The account's value units of the current calendar year." }),
      lifetime_value_units: z.number().meta({ description: "The account's value units of all time." }),
      next_tier_progression: z.number().meta({ description: 'Percentage (0-100) of the way to the next tier; 100 at the top tier.' }),
    })
    .nullable()
    .meta({ description: 'The tier reached now; id, name and color are null below the first tier. null when the organisation has no tiers.' }),
  joined_reward_schemes: z.array(
    z.object({ id: z.string(), name: z.string(), signed_up_on: z.number().int(), email_address: z.string().nullable(), sign_up_option: z.string() }),
  ),
  preferred_payment_method: z
    .object({ id: z.string(), type: z.string(), first6: z.string().nullable(), last4: z.string().nullable(), iban: z.string().nullable() })
    .nullable(),
});

export const merchantsResponse = z.object({ merchants: z.array(z.object({ id: z.string() })) });

export const merchantItem = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  is_parent: z.boolean().meta({ description: 'true when the merchant has no units below it (as spec.md 2.13 defines it).' }),
  schemes: z.array(z.object({ id: z.string(), name: z.string(), code: z.string().nullable() })).optional().meta({ description: 'Only with include_schemes=true.' }),
  tap: z.array(tap).meta({ description: "The merchant's own taps." }),
  venues: z.array(idName.extend({ taps: z.array(tap) })).optional().meta({ description: 'Only with include_venues=true.' }),
  creatives: z.array(merchantCreative).meta({ description: "The merchant's creatives (managed at /creatives), in the order they were created." }),
});

export const merchantList = contentList(merchantItem);
