// Response and query schemas of the contact operations (spec 2.1 "Get-contact response" and
// "Search item", spec 4.1 search parameters).
import { pagingSchema } from '../lists';
import { z } from 'zod';
import { CONTACT_METRICS, CONTACT_SORT_FIELDS } from '../../domain/contacts/search';
import { pagingQuery, zBool, zEpochQuery, zId } from '../validation';
import { customFieldsOut } from '../custom-fields/schemas';

const idName = z.object({ id: z.string(), name: z.string() }).nullable();
const nullableText = z.string().nullable();

const addressOut = z.object({
  id: z.string(),
  address_type: nullableText,
  is_primary: z.boolean(),
  care_of: nullableText,
  address_line_1: nullableText,
  address_line_2: nullableText,
  state_province_county: nullableText,
  town_city: nullableText,
  postal_code: nullableText,
  country_code: nullableText,
  country: nullableText.meta({ description: 'English name of country_code.' }),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  googlePlaceId: nullableText,
});

const phoneOut = z.object({ id: z.string(), phone_type: nullableText, is_primary: z.boolean(), country_code: nullableText, number: z.string() });
const emailOut = z.object({ id: z.string(), email_type: nullableText, is_primary: z.boolean(), email_address: z.string() });
const contactType = z.enum(['PERSON', 'COMPANY']);
const interactionStatus = z.enum(['RESTING', 'DORMANT']).meta({ description: 'DORMANT after 12 months without change or activity.' });
const kycStatus = z.enum(['PENDING', 'VERIFIED']).nullable();

export const contactDetail = z.object({
  id: z.string(),
  code: nullableText,
  contact_type: contactType,
  contact_name: z.string(),
  company_name: nullableText,
  title: nullableText,
  first_name: nullableText,
  middle_name: nullableText,
  last_name: nullableText,
  preferred_language_code: nullableText,
  statutory_number: nullableText,
  notes: nullableText,
  is_tax_exempt: z.boolean(),
  sms_opt_out: z.boolean(),
  email_opt_out: z.boolean(),
  direct_marketing: z.boolean(),
  affiliate_marketing: z.boolean(),
  category: idName,
  demographics: z.record(z.string(), z.unknown()).nullable(),
  company_profile: z
    .object({ industry: idName, industry_sectors: z.array(z.object({ id: z.string(), name: z.string() })) })
    .catchall(z.unknown())
    .nullable(),
  addresses: z.array(addressOut),
  phones: z.array(phoneOut),
  email_address: nullableText,
  emails: z.array(emailOut),
  custom_fields: customFieldsOut,
  consent_state: z.enum(['ACCEPTED', 'REJECTED', 'WITHDRAWN']).nullable(),
  is_anonymized: z.boolean(),
  interaction_status: interactionStatus,
  total_spend: z.number().meta({ description: 'Spend over the last 12 months.' }),
  kyc_profile: idName,
  kyc_status: kycStatus,
  referral_code: nullableText,
  loyalty_identifier: nullableText,
  registered_on: z.number().int(),
});

const financials = z.object({
  account: z
    .object({ id: z.string(), number: z.string(), life_cycle_state: z.string(), currency_code: z.string(), overdue_amount: z.number(), balance: z.number() })
    .nullable(),
  wallet: z
    .object({
      id: z.string(),
      code: z.string(),
      life_cycle_state: z.string(),
      balance: z.number(),
      alternative_balance: z.number().nullable(),
      wallet_currency_code: z.string(),
      alternative_currency_code: z.string().nullable(),
    })
    .nullable(),
});

const metric = z.object({ timestamp: z.number().int(), total: z.number().int() });

export const contactSearchItem = z.object({
  id: z.string(),
  code: nullableText,
  contact_type: contactType,
  contact_name: z.string(),
  statutory_number: nullableText,
  registered_on: z.number().int(),
  category: idName,
  addresses: z.array(addressOut),
  phones: z.array(phoneOut),
  email_address: nullableText,
  financials: financials.optional().meta({ description: 'Only with financials=true.' }),
  interaction_status: interactionStatus,
  metrics: z.object({ subscriptions: metric.optional(), schemes: metric.optional() }).optional().meta({ description: 'Only the metrics asked for.' }),
  kyc_profile: idName,
  kyc_status: kycStatus,
  loyalty_identifier: nullableText,
});

export const contactSearchResponse = z.object({ contacts: z.array(contactSearchItem), paging: pagingSchema });

const filter = (max = 200) => z.string().trim().min(1).max(max).optional();

export const contactSearchQuery = pagingQuery(CONTACT_SORT_FIELDS).extend({
  search_value: filter().meta({ description: 'Case-insensitive; matches inside full name, company name, code, phone number, loyalty identifier.' }),
  code: filter(),
  first_name: filter(),
  last_name: filter(),
  company_name: filter(),
  email_address: filter(254),
  phone_number: z
    .string()
    .trim()
    .regex(/\d/, 'must contain digits')
    .max(40)
    .optional()
    .meta({ description: 'Matched on digits only: "+357 22-123456" finds 22123456.' }),
  statutory_number: filter(100),
  cim: filter(100).meta({ description: 'Customer identification medium (the loyalty identifier).' }),
  loyalty_identifier: filter(100),
  registered_on_from: zEpochQuery.optional().meta({ description: "Registered at or after this second (epoch seconds, inclusive)." }),
  registered_on_to: zEpochQuery.optional().meta({ description: "Registered at or before this second (epoch seconds, inclusive)." }),
  organisation_id: zId.optional().meta({ description: "Owning organisation; only the caller's own organisation has contacts to show." }),
  financials: zBool.optional(),
  metrics: z
    .string()
    .transform((v) => v.split(',').map((m) => m.trim()).filter((m) => m !== ''))
    .pipe(z.array(z.enum(CONTACT_METRICS)))
    .optional()
    .meta({ description: 'Comma-separated: subscriptions, schemes.' }),
});
