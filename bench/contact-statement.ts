import { isId, normaliseId } from '../src/domain/ids';

/**
 * GET /contacts/{id} as ONE SQL statement: the contact of an organisation, by id or code, with
 * its category, KYC profile, industry, industry sectors, addresses, phones, e-mails and custom
 * fields, as one JSON value (column `contact`; keys are the column names, relations nested).
 *
 * The hand-written peer (bench/peer.ts) sends exactly this text. The issue ("Platform before
 * growth", part 7) asks that the peer send the same statement the service sends; today the
 * service still reads the contact through Prisma (src/domain/contacts/read.ts: `findMany` with
 * `include`, relationJoins). The lead will switch the service to this statement, e.g.
 * `ctx.db.$queryRawUnsafe(CONTACT_STATEMENT, ...contactStatementParams(organisationId, idOrCode))`
 * (the organisation id is the first parameter, as the tenancy guard in src/db/tenancy.ts requires
 * of raw statements), and present the JSON. Until then the two sides send different SQL; the
 * benchmark prints the statements per request of each.
 *
 * Semantics follow src/domain/contacts/lookup.ts: a GUID-shaped value matches the id or the
 * code (codes are free text), anything else only the code; if one contact's id and another's
 * code both match, the id wins. Lists are ordered as the service orders them (oldest first,
 * custom fields by key). Child rows are also filtered on the organisation (defence in depth:
 * the contact already is).
 *
 * Parameters: $1 organisation id (uuid), $2 the value if it is GUID-shaped, normalised, else
 * null (uuid), $3 the value as given (text, matched against code).
 */
export const CONTACT_STATEMENT = `SELECT json_build_object(
  'id', c.id, 'code', c.code, 'contact_type', c.contact_type, 'company_name', c.company_name, 'title', c.title,
  'first_name', c.first_name, 'middle_name', c.middle_name, 'last_name', c.last_name,
  'preferred_language_code', c.preferred_language_code, 'statutory_number', c.statutory_number, 'notes', c.notes,
  'sms_opt_out', c.sms_opt_out, 'email_opt_out', c.email_opt_out, 'affiliate_marketing', c.affiliate_marketing,
  'is_tax_exempt', c.is_tax_exempt, 'demographics', c.demographics, 'company_profile', c.company_profile,
  'industry_sector_ids', c.industry_sector_ids, 'referral_code', c.referral_code, 'loyalty_identifier', c.loyalty_identifier,
  'consent_state', c.consent_state, 'kyc_status', c.kyc_status, 'is_anonymized', c.is_anonymized,
  'anonymized_at', c.anonymized_at, 'last_activity_at', c.last_activity_at, 'created_at', c.created_at, 'updated_at', c.updated_at,
  'category', (SELECT json_build_object('id', x.id, 'name', x.name) FROM contact_categories x WHERE x.id = c.category_id AND x.organisation_id = c.organisation_id),
  'kyc_profile', (SELECT json_build_object('id', x.id, 'name', x.name) FROM kyc_profiles x WHERE x.id = c.kyc_profile_id AND x.organisation_id = c.organisation_id),
  'industry', (SELECT json_build_object('id', x.id, 'name', x.name) FROM industries x WHERE x.id = c.industry_id AND x.organisation_id = c.organisation_id),
  'industry_sectors', COALESCE((SELECT json_agg(json_build_object('id', s.id, 'name', s.name))
      FROM industry_sectors s WHERE cardinality(c.industry_sector_ids) > 0 AND s.id = ANY (c.industry_sector_ids) AND s.organisation_id = c.organisation_id), '[]'::json),
  'addresses', COALESCE((SELECT json_agg(json_build_object(
        'id', a.id, 'address_type', a.address_type, 'is_primary', a.is_primary, 'care_of', a.care_of,
        'address_line_1', a.address_line_1, 'address_line_2', a.address_line_2, 'state_province_county', a.state_province_county,
        'town_city', a.town_city, 'postal_code', a.postal_code, 'country_code', a.country_code,
        'lat', a.lat, 'lon', a.lon, 'google_place_id', a.google_place_id) ORDER BY a.created_at, a.id)
      FROM contact_addresses a WHERE a.contact_id = c.id AND a.organisation_id = c.organisation_id), '[]'::json),
  'phones', COALESCE((SELECT json_agg(json_build_object(
        'id', p.id, 'phone_type', p.phone_type, 'is_primary', p.is_primary, 'country_code', p.country_code, 'number', p.number)
        ORDER BY p.created_at, p.id)
      FROM contact_phones p WHERE p.contact_id = c.id AND p.organisation_id = c.organisation_id), '[]'::json),
  'emails', COALESCE((SELECT json_agg(json_build_object(
        'id', e.id, 'email_type', e.email_type, 'is_primary', e.is_primary, 'email_address', e.email_address)
        ORDER BY e.created_at, e.id)
      FROM contact_emails e WHERE e.contact_id = c.id AND e.organisation_id = c.organisation_id), '[]'::json),
  'custom_fields', COALESCE((SELECT json_agg(json_build_object('key', f.key, 'value', f.value) ORDER BY f.key)
      FROM contact_custom_fields f WHERE f.contact_id = c.id AND f.organisation_id = c.organisation_id), '[]'::json)
) AS contact
FROM (
  SELECT * FROM contacts
  WHERE organisation_id = $1::uuid AND (id = $2::uuid OR code = $3::text)
  ORDER BY (id = $2::uuid) DESC NULLS LAST
  LIMIT 1
) c`;

/** The statement's parameters for a path value (the id rule of src/domain/ids.ts). */
export function contactStatementParams(organisationId: string, idOrCode: string): [string, string | null, string] {
  return [organisationId, isId(idOrCode) ? normaliseId(idOrCode) : null, idOrCode];
}
