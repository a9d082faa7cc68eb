// GET /contacts/{id} (spec 2.1 "Get-contact response"): the stored contact plus its derived
// fields: contact_name, reference names, country names, interaction_status and total_spend.
import type { Prisma, Tx } from '../../db/client';
import { formatContactName, getNameDisplayFormat, type NameDisplayFormat } from '../reference';
import { countryName } from './countries';
import { CONTACT_DEFAULTS } from './defaults';
import { notFound } from '../errors';
import { idOrCodeWhere, pickByIdOrCode } from './lookup';

const oldestFirst: Prisma.ContactAddressOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];

export const contactInclude = {
  category: { select: { id: true, name: true } },
  kycProfile: { select: { id: true, name: true } },
  industry: { select: { id: true, name: true } },
  addresses: { orderBy: oldestFirst },
  phones: { orderBy: oldestFirst },
  emails: { orderBy: oldestFirst },
} satisfies Prisma.ContactInclude;

type NameRow = { contactType: string; companyName: string | null; title: string | null; firstName: string | null; middleName: string | null; lastName: string | null };

/** COMPANY: its company name; PERSON: composed per the organisation's name display format. */
export function contactName(c: NameRow, format: NameDisplayFormat): string {
  if (c.contactType === 'COMPANY') return c.companyName ?? '';
  return formatContactName(format, { title: c.title, first_name: c.firstName, middle_name: c.middleName, last_name: c.lastName });
}

/**
 * RESTING while the contact changed or was active within the last 12 months, else DORMANT.
 * Derived on read from last_activity_at, so it is never stale (spec: "from a cache").
 */
export function interactionStatus(lastActivityAt: Date, now = new Date()): 'RESTING' | 'DORMANT' {
  const limit = new Date(now);
  limit.setUTCMonth(limit.getUTCMonth() - CONTACT_DEFAULTS.dormantAfterMonths);
  return lastActivityAt < limit ? 'DORMANT' : 'RESTING';
}

/**
 * Spend over the last 12 months (spec 2.1 total_spend). Purchases do not exist yet, so it is
 * 0; the purchases issue replaces the body with the sum of the contact's posted purchases.
 */
export async function totalSpendLast12Months(_tx: Tx, _organisationId: string, _contactId: string): Promise<number> {
  return 0;
}

export function presentAddress(a: {
  id: string; addressType: string | null; isPrimary: boolean; careOf: string | null; addressLine1: string | null; addressLine2: string | null;
  stateProvinceCounty: string | null; townCity: string | null; postalCode: string | null; countryCode: string | null;
  lat: number | null; lon: number | null; googlePlaceId: string | null;
}) {
  return {
    id: a.id,
    address_type: a.addressType,
    is_primary: a.isPrimary,
    care_of: a.careOf,
    address_line_1: a.addressLine1,
    address_line_2: a.addressLine2,
    state_province_county: a.stateProvinceCounty,
    town_city: a.townCity,
    postal_code: a.postalCode,
    country_code: a.countryCode,
    country: countryName(a.countryCode),
    lat: a.lat,
    lon: a.lon,
    googlePlaceId: a.googlePlaceId,
  };
}

export function presentPhone(p: { id: string; phoneType: string | null; isPrimary: boolean; countryCode: string | null; number: string }) {
  return { id: p.id, phone_type: p.phoneType, is_primary: p.isPrimary, country_code: p.countryCode, number: p.number };
}

export function primaryEmail(emails: Array<{ isPrimary: boolean; emailAddress: string }>): string | null {
  return emails.find((e) => e.isPrimary)?.emailAddress ?? null;
}

export function idName(row: { id: string; name: string } | null) {
  return row ? { id: row.id, name: row.name } : null;
}

export async function getContact(tx: Tx, organisationId: string, idOrCode: string) {
  // The lookup by id or code and the relations in one call (lookup.ts explains the id-or-code rule).
  const rows = await tx.contact.findMany({
    where: { organisationId, ...idOrCodeWhere(idOrCode) },
    include: { ...contactInclude, customFields: { orderBy: { key: 'asc' } } },
    take: 2,
  });
  const c = pickByIdOrCode(rows, idOrCode);
  if (!c) throw notFound('Contact');
  const format = await getNameDisplayFormat(tx, organisationId);
  const sectors = c.industrySectorIds.length
    ? await tx.industrySector.findMany({ where: { organisationId, id: { in: c.industrySectorIds } }, select: { id: true, name: true } })
    : [];
  const byId = new Map(sectors.map((s) => [s.id, s]));
  const profile = c.companyProfile as Record<string, unknown> | null;
  return {
    id: c.id,
    code: c.code,
    contact_type: c.contactType as 'PERSON' | 'COMPANY',
    contact_name: contactName(c, format),
    company_name: c.companyName,
    title: c.title,
    first_name: c.firstName,
    middle_name: c.middleName,
    last_name: c.lastName,
    preferred_language_code: c.preferredLanguageCode,
    statutory_number: c.statutoryNumber,
    notes: c.notes,
    is_tax_exempt: c.isTaxExempt,
    sms_opt_out: c.smsOptOut,
    email_opt_out: c.emailOptOut,
    direct_marketing: !c.smsOptOut && !c.emailOptOut,
    affiliate_marketing: c.affiliateMarketing,
    category: idName(c.category),
    demographics: c.demographics as Record<string, unknown> | null,
    company_profile:
      c.contactType === 'COMPANY'
        ? {
            ...(profile ?? {}),
            industry: idName(c.industry),
            industry_sectors: c.industrySectorIds.flatMap((sid) => (byId.has(sid) ? [byId.get(sid)!] : [])),
          }
        : null,
    addresses: c.addresses.map(presentAddress),
    phones: c.phones.map(presentPhone),
    email_address: primaryEmail(c.emails),
    emails: c.emails.map((e) => ({ id: e.id, email_type: e.emailType, is_primary: e.isPrimary, email_address: e.emailAddress })),
    custom_fields: c.customFields.map((f) => ({ key: f.key, value: f.value })),
    consent_state: c.consentState as 'ACCEPTED' | 'REJECTED' | 'WITHDRAWN' | null,
    is_anonymized: c.isAnonymized,
    interaction_status: interactionStatus(c.lastActivityAt),
    total_spend: await totalSpendLast12Months(tx, organisationId, c.id),
    kyc_profile: idName(c.kycProfile),
    kyc_status: c.kycStatus as 'PENDING' | 'VERIFIED' | null,
    referral_code: c.referralCode,
    loyalty_identifier: c.loyaltyIdentifier,
    registered_on: Math.floor(c.createdAt.getTime() / 1000),
  };
}
