// GET /contacts/{id} as ONE statement (and a search page as one more): the contact of an organisation by id or code with its
// category, KYC profile, industry, industry sectors, addresses, phones, e-mails and custom fields,
// built by PostgreSQL as one JSON value whose keys are the Prisma field names. Through Prisma
// (include + relationJoins) the same read cost ~1 ms of service CPU; this costs ~0.1 ms
// (docs/benchmarks.md). bench/peer.ts sends the same text.
//
// The id-or-code rule of lookup.ts: a GUID-shaped value matches the id or the code (codes are
// free text), anything else only the code; when one contact's id and another's code both match,
// the id wins. Lists are ordered as the write side orders them (oldest first, custom fields by
// key, sectors as stored). Child rows are filtered on the organisation too (defence in depth).
import { SQL_NOW_SECONDS } from '../clock';
import { isId, normaliseId } from '../ids';

const idName = (alias: string, table: string, column: string) =>
  `(SELECT json_build_object('id', ${alias}.id, 'name', ${alias}.name) FROM ${table} ${alias} WHERE ${alias}.id = c.${column} AND ${alias}.organisation_id = c.organisation_id)`;

const childList = (alias: string, table: string, fields: Record<string, string>, order: string) =>
  `COALESCE((SELECT json_agg(json_build_object(${Object.entries(fields)
    .map(([key, column]) => `'${key}', ${alias}.${column}`)
    .join(', ')}) ORDER BY ${order}) FROM ${table} ${alias} WHERE ${alias}.contact_id = c.id AND ${alias}.organisation_id = c.organisation_id), '[]'::json)`;

const CONTACT_COLUMNS: Record<string, string> = {
  id: 'id', code: 'code', contactType: 'contact_type', companyName: 'company_name', title: 'title',
  firstName: 'first_name', middleName: 'middle_name', lastName: 'last_name',
  preferredLanguageCode: 'preferred_language_code', statutoryNumber: 'statutory_number', notes: 'notes',
  smsOptOut: 'sms_opt_out', emailOptOut: 'email_opt_out', affiliateMarketing: 'affiliate_marketing',
  isTaxExempt: 'is_tax_exempt', demographics: 'demographics', companyProfile: 'company_profile',
  industrySectorIds: 'industry_sector_ids', referralCode: 'referral_code', loyaltyIdentifier: 'loyalty_identifier',
  consentState: 'consent_state', kycStatus: 'kyc_status', isAnonymized: 'is_anonymized',
  anonymizedAt: 'anonymized_at', lastActivityAt: 'last_activity_at', createdAt: 'created_at', updatedAt: 'updated_at',
};

/** The contact of row alias `c` with its relations, as one JSON value. */
export const CONTACT_DOCUMENT = `json_build_object(
  ${Object.entries(CONTACT_COLUMNS).map(([key, column]) => `'${key}', c.${column}`).join(', ')},
  'category', ${idName('x', 'contact_categories', 'category_id')},
  'kycProfile', ${idName('x', 'kyc_profiles', 'kyc_profile_id')},
  'industry', ${idName('x', 'industries', 'industry_id')},
  'industrySectors', COALESCE((SELECT json_agg(json_build_object('id', s.id, 'name', s.name) ORDER BY array_position(c.industry_sector_ids, s.id))
      FROM industry_sectors s WHERE cardinality(c.industry_sector_ids) > 0 AND s.id = ANY (c.industry_sector_ids) AND s.organisation_id = c.organisation_id), '[]'::json),
  'addresses', ${childList('a', 'contact_addresses', {
    id: 'id', addressType: 'address_type', isPrimary: 'is_primary', careOf: 'care_of', addressLine1: 'address_line_1',
    addressLine2: 'address_line_2', stateProvinceCounty: 'state_province_county', townCity: 'town_city',
    postalCode: 'postal_code', countryCode: 'country_code', lat: 'lat', lon: 'lon', googlePlaceId: 'google_place_id',
  }, 'a.created_at, a.id')},
  'phones', ${childList('p', 'contact_phones', { id: 'id', phoneType: 'phone_type', isPrimary: 'is_primary', countryCode: 'country_code', number: 'number' }, 'p.created_at, p.id')},
  'emails', ${childList('e', 'contact_emails', { id: 'id', emailType: 'email_type', isPrimary: 'is_primary', emailAddress: 'email_address' }, 'e.created_at, e.id')},
  'customFields', ${childList('f', 'contact_custom_fields', { key: 'key', value: 'value' }, 'f.key')}
)`;

/**
 * Spend over the last 12 months (spec 2.1 total_spend): the contact's posted purchases less what
 * was returned of them, plus its posted wallet debits by journal (docs/loyalty.md). A purchase's
 * own spend from the wallet is part of its total, not counted again. Text, so no float carries it.
 */
const TOTAL_SPEND = `((SELECT COALESCE(SUM(p.total_amount - p.returned_amount), 0) FROM purchases p
    WHERE p.organisation_id = c.organisation_id AND p.contact_id = c.id AND p.life_cycle_state = 'POSTED'
      AND p.performed_on >= ${SQL_NOW_SECONDS} - interval '12 months')
  + (SELECT COALESCE(SUM(t.amount), 0) FROM wallet_transactions t
    WHERE t.organisation_id = c.organisation_id AND t.contact_id = c.id AND t.classification = 'DEBIT'
      AND t.life_cycle_state = 'POSTED' AND t.created_at >= ${SQL_NOW_SECONDS} - interval '12 months'))::text`;

/** Parameters: $1 organisation, $2 the value if GUID-shaped (normalised) else null, $3 the value as given. */
export const CONTACT_STATEMENT = `SELECT ${CONTACT_DOCUMENT} AS contact, ${TOTAL_SPEND} AS "totalSpend"
FROM (
  SELECT * FROM contacts
  WHERE organisation_id = $1 AND (id = $2::uuid OR code = $3::text)
  ORDER BY (id = $2::uuid) DESC NULLS LAST
  LIMIT 1
) c`;

/**
 * The contacts of a search page ($2: their ids) as documents, each with its primary account
 * (`account`, null when it has none) and that account's first wallet that is not cancelled
 * (`wallet`). Amounts as text. Order is the caller's: it has the page's order.
 */
export const SEARCH_PAGE_STATEMENT = `SELECT ${CONTACT_DOCUMENT} AS contact,
  (SELECT json_build_object('id', x.id, 'number', x.number, 'lifeCycleState', x.life_cycle_state, 'currencyCode', x.currency_code, 'balance', x.balance::text)
     FROM accounts x WHERE x.contact_id = c.id AND x.organisation_id = c.organisation_id AND x.is_primary LIMIT 1) AS account,
  (SELECT json_build_object('id', w.id, 'code', w.code, 'lifeCycleState', w.life_cycle_state, 'currencyCode', w.currency_code, 'balance', w.balance::text)
     FROM accounts x JOIN wallets w ON w.account_id = x.id AND w.organisation_id = x.organisation_id
     WHERE x.contact_id = c.id AND x.organisation_id = c.organisation_id AND x.is_primary AND w.life_cycle_state <> 'CANCELLED'
     ORDER BY w.created_at, w.id LIMIT 1) AS wallet
FROM contacts c
WHERE c.organisation_id = $1 AND c.id = ANY ($2::uuid[])`;

/** $2 and $3 of the statement for a path value (the id rule of src/domain/ids.ts). */
export function contactStatementParams(idOrCode: string): [string | null, string] {
  return [isId(idOrCode) ? normaliseId(idOrCode) : null, idOrCode];
}
