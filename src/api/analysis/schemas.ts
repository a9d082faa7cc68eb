// Queries, bodies and responses of the analysis lists and contact profiles (spec 4.1;
// docs/analysis.md).
import { z } from 'zod';
import { ORDER_SORT_FIELDS } from '../../domain/analysis/orders';
import { PROFILE_CAP } from '../../domain/analysis/limits';
import { REWARDS_SORT_FIELDS } from '../../domain/analysis/rewards';
import { contactSearchQuery } from '../contacts/responses';
import { pagesList } from '../lists';
import { documentedRule, exactlyOneOf, pagingQuery, whenParsed, zCurrency, zEpochQuery, zId } from '../validation';

const code = z.string().trim().min(1).max(100);
const categoryFilter = {
  category_id: zId.optional().meta({ description: 'Only contacts of this category (400 naming the parameter when there is none).' }),
  category_code: code.optional().meta({ description: 'The category by its code instead of its id (both given: both must match).' }),
};

export const rewardsAnalysisQuery = pagingQuery(REWARDS_SORT_FIELDS).extend({
  tier_id: zId.optional().meta({ description: 'Only contacts whose primary account has reached this reward tier now (400 naming the parameter when there is none).' }),
  tier_code: code.optional().meta({ description: 'The tier by its code instead of its id (both given: both must match).' }),
  ...categoryFilter,
});

export const orderAnalysisQuery = pagingQuery(ORDER_SORT_FIELDS).extend({
  order_date_from: zEpochQuery.optional().meta({ description: 'Only orders performed at or after this second (epoch seconds, inclusive).' }),
  order_date_to: zEpochQuery.optional().meta({ description: 'Only orders performed at or before this second (epoch seconds, inclusive).' }),
  currency_code: zCurrency.optional().meta({ description: "Only orders in this currency; default: the organisation's system currency." }),
  ...categoryFilter,
});

const idName = z.object({ id: z.string(), name: z.string() }).nullable();
const days = z.number().int().nullable().meta({ description: "Calendar days, in the organisation's time zone, since the latest one; null without one." });
const activity = { number: z.number().int(), currency: z.string().meta({ description: "The primary account's currency." }) };

export const rewardsAnalysisItem = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  loyalty_code: z.string().nullable().meta({ description: "The contact's loyalty identifier." }),
  sign_up_date: z.number().int().nullable().meta({ description: "The primary account's reward sign-up (signed_up_on), else its earliest scheme sign-up still joined." }),
  tier: idName.meta({ description: 'The tier reached now; null below the first tier.' }),
  category: idName,
  wallet: z
    .object({ id: z.string(), code: z.string(), balance: z.number(), currency: z.string() })
    .nullable()
    .meta({ description: "The primary account's first wallet that is not cancelled." }),
  purchases: z.object({ ...activity, amount: z.number().meta({ description: 'Posted purchases of the primary account, less what was returned of them.' }), days_since_last_purchase: days }),
  awards: z.object({ ...activity, amount: z.number().meta({ description: 'Posted awards (those of a cancelled purchase are void).' }), days_since_last_award: days }),
  spends: z.object({ ...activity, amount: z.number().meta({ description: 'Posted spends from the wallet by purchases.' }), days_since_last_spend: days }),
});

export const orderAnalysisItem = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string().nullable(),
  category: idName,
  number_of_orders: z.number().int(),
  total_order_amount: z.number().meta({ description: 'The orders\' totals less what was returned of them.' }),
  average_order_value: z.number().meta({ description: 'total_order_amount / number_of_orders, rounded half up to 2 decimals.' }),
  currency: z.string(),
  days_since_last_order: z.number().int().meta({ description: "Calendar days, in the organisation's time zone, since the latest order." }),
  preferred_supply_method: idName.meta({ description: 'The unit (outlet, else merchant) of most orders; null when no order names a tap.' }),
  preferred_payment_method: z
    .object({ id: z.string(), type: z.string(), brand: z.string().nullable(), funding_type: z.string().nullable() })
    .nullable()
    .meta({ description: "The contact's payment method most orders were paid with (payment_medium_identifier); null when none matches." }),
});

export const rewardsAnalysisResponse = pagesList(rewardsAnalysisItem);
export const orderAnalysisResponse = pagesList(orderAnalysisItem);

const contactFilters = contactSearchQuery.omit({ page: true, size: true, sort: true, order: true, organisation_id: true, financials: true, metrics: true });

export const profilesBody = documentedRule(z
  .strictObject({
    ids: z.array(zId).min(1).max(PROFILE_CAP).optional().meta({ description: `Contact GUIDs, at most ${PROFILE_CAP}.` }),
    codes: z.array(code).min(1).max(PROFILE_CAP).optional().meta({ description: `Contact codes, at most ${PROFILE_CAP}.` }),
    search: contactFilters.optional().meta({ description: `The filters of GET /contacts; at most ${PROFILE_CAP} contacts may match.` }),
  })
  .superRefine((body, ctx) => {
    const given = (['ids', 'codes', 'search'] as const).filter((k) => body[k] !== undefined);
    if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['ids'], message: 'give one of ids, codes or search' });
    if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[1]], message: 'give only one of ids, codes or search' });
  }, whenParsed), exactlyOneOf('ids', 'codes', 'search'));

const idNames = z.array(z.object({ id: z.string(), name: z.string() }));

export const contactProfile = z.object({
  id: z.string(),
  code: z.string().nullable(),
  type: z.enum(['PERSON', 'COMPANY']),
  name: z.string().nullable().meta({ description: 'First name of a PERSON, company name of a COMPANY.' }),
  surname: z.string().nullable().meta({ description: 'Last name of a PERSON; null for a COMPANY.' }),
  gender: z.enum(['MALE', 'FEMALE']).nullable(),
  preferred_language: z.string().nullable(),
  email: z.string().nullable().meta({ description: 'The primary e-mail address, else the first.' }),
  phone: z.string().nullable().meta({ description: 'The primary phone number, else the first.' }),
  category: idName,
  industry: idName,
  industry_sectors: idNames,
  birthday: z.object({ day: z.number().int(), month: z.number().int(), year: z.number().int() }).nullable(),
  nameday: z.object({ day: z.number().int(), month: z.number().int() }).nullable(),
  location: z
    .object({ city: z.string().nullable(), province: z.string().nullable(), country: z.string().nullable(), postal_code: z.string().nullable() })
    .nullable()
    .meta({ description: 'The primary address, else the first; country is its ISO 3166 alpha-3 code.' }),
  payment_method: z
    .object({ type: z.string(), funding_type: z.string().nullable(), brand: z.string().nullable() })
    .nullable()
    .meta({ description: 'The default payment method, else the oldest; deleted ones are not shown.' }),
  financials: z
    .array(
      z.object({
        account: z.object({
          id: z.string(), number: z.string(), name: z.string().nullable(), is_primary: z.boolean(), life_cycle_state: z.string(),
          currency_code: z.string(), balance: z.number(),
        }),
        wallet: z.object({ id: z.string(), code: z.string(), life_cycle_state: z.string(), currency_code: z.string(), balance: z.number() }).nullable(),
      }),
    )
    .meta({ description: 'Every account, the primary one first, each with its first wallet that is not cancelled.' }),
  reward_schemes: z
    .array(z.object({ id: z.string(), name: z.string(), signed_up_date: z.number().int() }))
    .meta({ description: 'The schemes the primary account has joined and not left, oldest sign-up first.' }),
});

export const profilesResponse = z.object({ contacts: z.array(contactProfile) });
