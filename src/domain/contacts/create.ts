// POST /contacts (spec 2.1, 4.1): the contact with its addresses, phones, e-mails, custom
// fields and accounts, an audit row and the REGISTER_CONTACT event, in one transaction.
// Written like the ledger (docs/money.md "The write path"): on ctx.sql, every check and
// look-up before the first write, then one statement for the contact, all its lists, the audit
// row and the event, whose contact snapshot reads the statement's own inserts (issue 32).
import type { OrgSql } from '../../db/sql';
import type { AuditActor } from '../audit';
import { checkCustomFields } from '../custom-fields/check';
import { recordCtes, recordParams } from '../events/record';
import { newId } from '../ids';
import { defaultAccount, newAccountRows } from './accounts';
import { categoryRef, checkOnePrimary, checkTypeRules, checkUniqueKeys, emailList, marketing, primaryFlags } from './normalise';
import { resolveCategoryId, resolveCompanyProfile } from './refs';
import { buildSearchText } from './search-text';
import type { ContactCreateInput } from './types';

// The lists arrive as JSON arrays whose keys are the column names; a list may be empty.
const INSERT = `WITH c AS (
  INSERT INTO contacts (id, organisation_id, contact_type, code, company_name, first_name, middle_name, last_name, loyalty_identifier, title,
    preferred_language_code, statutory_number, notes, sms_opt_out, email_opt_out, affiliate_marketing, is_tax_exempt, category_id,
    demographics, company_profile, industry_id, industry_sector_ids, referral_code, search_text, updated_at)
  VALUES ($2, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19::jsonb, $20::jsonb, $21, $22::uuid[], $23, $24, now())
  RETURNING *
), ad AS (
  INSERT INTO contact_addresses (id, organisation_id, contact_id, created_at, updated_at, is_primary, address_type, care_of, address_line_1,
    address_line_2, state_province_county, town_city, postal_code, country_code, lat, lon, google_place_id)
  SELECT x.id, $1, c.id, x.created_at, now(), x.is_primary, x.address_type, x.care_of, x.address_line_1,
    x.address_line_2, x.state_province_county, x.town_city, x.postal_code, x.country_code, x.lat, x.lon, x.google_place_id
  FROM c, jsonb_to_recordset($25::jsonb) AS x(id uuid, created_at timestamptz, is_primary boolean, address_type text, care_of text, address_line_1 text,
    address_line_2 text, state_province_county text, town_city text, postal_code text, country_code text, lat float8, lon float8, google_place_id text)
  RETURNING *
), ph AS (
  INSERT INTO contact_phones (id, organisation_id, contact_id, created_at, updated_at, is_primary, phone_type, country_code, number)
  SELECT x.id, $1, c.id, x.created_at, now(), x.is_primary, x.phone_type, x.country_code, x.number
  FROM c, jsonb_to_recordset($26::jsonb) AS x(id uuid, created_at timestamptz, is_primary boolean, phone_type text, country_code text, number text)
  RETURNING *
), em AS (
  INSERT INTO contact_emails (id, organisation_id, contact_id, created_at, updated_at, is_primary, email_type, email_address)
  SELECT x.id, $1, c.id, x.created_at, now(), x.is_primary, x.email_type, x.email_address
  FROM c, jsonb_to_recordset($27::jsonb) AS x(id uuid, created_at timestamptz, is_primary boolean, email_type text, email_address text)
  RETURNING *
), cf AS (
  INSERT INTO contact_custom_fields (id, organisation_id, contact_id, key, value, updated_at)
  SELECT x.id, $1, c.id, x.key, x.value, now() FROM c, jsonb_to_recordset($28::jsonb) AS x(id uuid, key text, value jsonb)
), ac AS (
  INSERT INTO accounts (id, organisation_id, contact_id, number, name, is_primary, life_cycle_state, currency_code, classification_id,
    credit_limit, credit_rating, is_tax_exempt, billing_address_id, updated_at)
  SELECT x.id, $1, c.id, x.number, x.name, x.is_primary, x.life_cycle_state, x.currency_code, x.classification_id,
    x.credit_limit, x.credit_rating, x.is_tax_exempt, $29::uuid, now()
  FROM c, jsonb_to_recordset($30::jsonb) AS x(id uuid, number text, name text, is_primary boolean, life_cycle_state text, currency_code text,
    classification_id uuid, credit_limit numeric, credit_rating text, is_tax_exempt boolean)
), ${recordCtes(31, { contacts: 'c', emails: 'em', phones: 'ph', addresses: 'ad' })}
SELECT id FROM c`;

export async function createContact(sql: OrgSql, actor: AuditActor, input: ContactCreateInput): Promise<{ id: string }> {
  checkTypeRules(input.contact_type, input, false);
  const flags = marketing(input);
  const emails = emailList(input) ?? [];
  checkOnePrimary(input.addresses, 'addresses');
  checkOnePrimary(input.phones, 'phones');
  checkOnePrimary(input.emails, 'emails');
  checkUniqueKeys(input.custom_fields, 'custom_fields');
  await checkCustomFields(sql, 'CONTACTS', input.custom_fields);
  const categoryId = await resolveCategoryId(sql, categoryRef(input), input.category_id !== undefined ? 'category_id' : 'category');
  const profile = input.company_profile ? await resolveCompanyProfile(sql, input.company_profile, { profile: null, industryId: null }) : undefined;
  const accounts = await newAccountRows(sql, input.accounts?.length ? input.accounts : input.create_default_account ? [defaultAccount()] : []);

  const id = input.id ?? newId();
  const accountIds = accounts.map((a) => a.id);
  // Items keep the order of the body: ids made in the same millisecond do not sort by creation.
  const now = Date.now();
  const item = <T extends { is_primary?: boolean }>(list: T[], i: number) => ({ id: newId(), created_at: new Date(now + i), is_primary: primaryFlags(list)[i] });
  const addresses = (input.addresses ?? []).map((a, i, all) => ({
    ...item(all, i), address_type: a.address_type, care_of: a.care_of, address_line_1: a.address_line_1, address_line_2: a.address_line_2,
    state_province_county: a.state_province_county, town_city: a.town_city, postal_code: a.postal_code, country_code: a.country_code,
    lat: a.lat, lon: a.lon, google_place_id: a.googlePlaceId,
  }));
  const phones = (input.phones ?? []).map((p, i, all) => ({ ...item(all, i), phone_type: p.phone_type, country_code: p.country_code, number: p.number as string }));
  const names = {
    code: input.code ?? null,
    companyName: input.company_name ?? null,
    firstName: input.first_name ?? null,
    middleName: input.middle_name ?? null,
    lastName: input.last_name ?? null,
    loyaltyIdentifier: input.loyalty_identifier ?? null,
  };

  // No SELECT before the insert: the unique indexes on id, code and statutory number decide,
  // also between concurrent creates (409 naming the field, src/domain/db-errors.ts).
  await sql.rows(INSERT, [
    id, input.contact_type, names.code, names.companyName, names.firstName, names.middleName, names.lastName, names.loyaltyIdentifier,
    input.title ?? null, input.preferred_language_code ?? null, input.statutory_number ?? null, input.notes ?? null,
    flags.smsOptOut ?? false, flags.emailOptOut ?? false, flags.affiliateMarketing ?? false, input.is_tax_exempt ?? false, categoryId ?? null,
    json(input.demographics), json(profile?.profile), profile?.industryId ?? null, profile?.industrySectorIds ?? [], input.referral_code ?? null,
    buildSearchText(names, phones),
    JSON.stringify(addresses),
    JSON.stringify(phones),
    JSON.stringify(emails.map((e, i, all) => ({ ...item(all, i), email_type: e.email_type, email_address: e.email_address as string }))),
    JSON.stringify((input.custom_fields ?? []).map((f) => ({ id: newId(), key: f.key, value: f.value }))),
    // Every new account bills to the contact's primary address.
    addresses.find((a) => a.is_primary)?.id ?? null,
    JSON.stringify(accounts),
    ...recordParams(actor, [{
      // Field names only: the audit trail must not keep personal data that anonymisation removes.
      change: { action: 'CREATE', entityType: 'contact', entityId: id, changes: { fields: Object.keys(input), account_ids: accountIds } },
      event: { type: 'REGISTER_CONTACT', payload: { contact_id: id, contact_type: input.contact_type, account_ids: accountIds } },
    }]),
  ]);
  return { id };
}

/** A JSON column's parameter: absent or null is SQL NULL, as Prisma wrote it. */
function json(value: object | null | undefined): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
