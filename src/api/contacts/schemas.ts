// Request bodies of the contact operations (spec 2.1). Each body accepts both shapes of 2.1,
// the main one and the "alternative contact shape"; src/domain/contacts/normalise.ts merges
// them. Item schemas shared by create and update are built by functions of `forUpdate`.
import { z } from 'zod';
import { documentedRule, someOf, whenParsed, zAmount, zBool, zCountry, zCurrency, zEmail, zEpoch, zId, zLanguage, zNonNegativeAmount } from '../validation';
import { customFieldValue } from '../custom-fields/schemas';

/** zCountry checks the code against ISO 3166 itself; the name stays for the schemas that use it. */
export const zCountryCode = zCountry;

const text = (max = 200) => z.string().trim().min(1).max(max);
/** Optional on create; on update `null` clears it. */
const clearable = (max = 200) => text(max).nullable().optional();
/** Values beyond those spec 2.1 shows are allowed ("not shown"), in the same upper-case form. */
const typeCode = z.string().regex(/^[A-Z][A-Z0-9_]{0,49}$/, 'must be an upper-case code such as HOME or LANDLINE');

export const zRef = documentedRule(
  z
    .strictObject({ id: zId.optional(), code: text(100).optional() })
    .refine((r) => r.id !== undefined || r.code !== undefined, { message: 'give the id or the code', ...whenParsed }),
  someOf('id', 'code'),
).meta({ description: 'A reference by id or by code (at least one of the two).' });

const code = text(100).regex(/^[^/]+$/, 'must not contain "/"');

/** On update, a list item with `id` changes that item; without it, the item is added. */
const itemId = (what: string) => zId.optional().meta({ description: `An existing ${what} to change; without it one is added.` });

const newAddress = z.strictObject({
  address_type: typeCode.nullable().optional().meta({ description: 'BUSINESS, HOME, POBOX, CUSTOM2, ...' }),
  is_primary: zBool.optional(),
  care_of: clearable(),
  address_line_1: clearable(),
  address_line_2: clearable(),
  state_province_county: clearable(),
  town_city: clearable(),
  postal_code: clearable(20),
  country_code: zCountryCode.nullable().optional(),
  lat: z.number().min(-90).max(90).nullable().optional(),
  lon: z.number().min(-180).max(180).nullable().optional(),
  googlePlaceId: clearable(300).meta({ description: 'Google Maps place id, when known.' }),
});

const phoneNumber = z.string().trim().regex(/^\+?[0-9][0-9 ()./-]{2,29}$/, 'must be a phone number (digits, spaces, + ( ) . / -)');

const newPhone = z.strictObject({
  phone_type: typeCode.nullable().optional().meta({ description: 'LANDLINE, MOBILE, FAX, CUSTOM2, CUSTOM4, ...' }),
  is_primary: zBool.optional(),
  country_code: zCountryCode.nullable().optional(),
  number: phoneNumber,
});

const emailAddress = zEmail;

const newEmail = z.strictObject({
  email_type: typeCode.nullable().optional().meta({ description: 'PERSONAL, BUSINESS, CUSTOM3, ...' }),
  is_primary: zBool.optional(),
  email_address: emailAddress,
});

export const customField = z.strictObject({ key: text(100), value: customFieldValue });

const account = z.strictObject({
  name: clearable(),
  is_primary: zBool.optional(),
  credit_limit: zNonNegativeAmount.nullable().optional(),
  currency_code: zCurrency.optional(),
  classification_id: zId.optional(),
  classification: zRef.optional(),
  credit_rating: clearable(50),
  is_tax_exempt: zBool.optional(),
});

const dateParts = z.object({ year: z.number().int().min(1850).max(2200), month: z.number().int().min(1).max(12), day: z.number().int().min(1).max(31) });
const document = (numberField: 'passport_number' | 'id_number') =>
  z.strictObject({ [numberField]: clearable(100), issue_country_code: zCountryCode.nullable().optional(), expiration_date: zEpoch.nullable().optional() });

export const demographics = z.strictObject({
  gender: z.enum(['MALE', 'FEMALE']).nullable().optional(),
  country_of_residence: zCountryCode.nullable().optional(),
  passport: document('passport_number').nullable().optional(),
  id_details: document('id_number').nullable().optional(),
  name_day: z.strictObject({ month: z.number().int().min(1).max(12), day: z.number().int().min(1).max(31) }).nullable().optional(),
  date_of_birth: dateParts
    .strict()
    .refine((d) => new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDate() === d.day, { message: 'is not a calendar date', ...whenParsed })
    .nullable()
    .optional(),
});

export const companyProfile = z.strictObject({
  industry_id: zId.nullable().optional(),
  industry: zRef.nullable().optional(),
  industry_sectors: z.array(z.union([zId, zRef])).max(50).optional().meta({ description: 'Sector GUIDs, or {id|code} references.' }),
  profile_year: z.number().int().min(1800).max(2200).nullable().optional(),
  annual_turnover: zAmount.nullable().optional(),
  established_on: zEpoch.nullable().optional(),
  number_of_employees: z.number().int().min(0).nullable().optional(),
  registration_number: clearable(100),
  registration_country: zCountryCode.nullable().optional(),
  tax_reference_number: clearable(100),
  vat_registration_number: clearable(100),
});

/** List items of a create; an update's items may name an existing item by `id`. */
const createItems = { address: newAddress, phone: newPhone, email: newEmail };
const updateItems = {
  address: newAddress.extend({ id: itemId('address') }),
  phone: newPhone.extend({ id: itemId('phone'), number: phoneNumber.optional() }),
  email: newEmail.extend({ id: itemId('e-mail'), email_address: emailAddress.optional() }),
};

/** Fields of both create and update (spec 2.1 main and alternative shapes). */
const contactFields = <I extends typeof createItems | typeof updateItems>(items: I, forUpdate: boolean) => ({
  code: forUpdate ? code.nullable().optional() : code.optional(),
  company_name: clearable(),
  title: clearable(50),
  first_name: clearable(),
  middle_name: clearable(),
  last_name: clearable(),
  preferred_language_code: zLanguage.nullable().optional(),
  statutory_number: clearable(100),
  notes: clearable(4000),
  sms_opt_out: zBool.optional(),
  email_opt_out: zBool.optional(),
  direct_marketing: zBool.optional().meta({ description: 'Alternative to the opt-out flags: true = both opt-outs false.' }),
  affiliate_marketing: zBool.optional(),
  is_tax_exempt: zBool.optional(),
  category_id: zId.nullable().optional(),
  category: zRef.nullable().optional(),
  demographics: demographics.nullable().optional().meta({ description: 'PERSON only.' }),
  company_profile: companyProfile.nullable().optional().meta({ description: 'COMPANY only.' }),
  addresses: z.array(items.address as I['address']).max(50).optional(),
  phones: z.array(items.phone as I['phone']).max(50).optional(),
  email_address: forUpdate ? emailAddress.nullable().optional() : emailAddress.optional(),
  emails: z.array(items.email as I['email']).max(50).optional(),
  custom_fields: z.array(customField).max(200).optional(),
  referral_code: clearable(100),
  loyalty_identifier: clearable(100),
});

export const contactCreateBody = z.strictObject({
  id: zId.optional().meta({ description: 'Optional; a time-based GUID is generated if absent.' }),
  contact_type: z.enum(['PERSON', 'COMPANY']),
  ...contactFields(createItems, false),
  create_default_account: zBool.optional().meta({ description: 'true: one account with system defaults (when accounts[] is empty).' }),
  accounts: z.array(account).max(20).optional(),
});

export const contactUpdateBody = z.strictObject(contactFields(updateItems, true));

export const contactBulkUpdateBody = z.strictObject({
  contacts: z
    .array(z.strictObject({ contact: zRef, category: zRef.optional(), custom_fields: z.array(customField).max(200).optional() }))
    .min(1)
    .max(1000),
});

export const consentBody = z.strictObject({ consent_state: z.enum(['ACCEPTED', 'REJECTED', 'WITHDRAWN']) });

/** `{id}` of a contact path: the GUID or the code. */
export const contactParams = z.object({ id: z.string().min(1).max(100).meta({ description: 'Contact GUID or code.' }) });
