// Shapes contact records as spec 2.1's get-contact response and search item. Derived values
// (contact_name, interaction_status) come from domain rules; times and amounts leave here as
// epoch seconds and JSON numbers.
import type { z } from 'zod';
import type { ContactRecord, ContactSearchRow } from '../../domain/contacts/read';
import { contactName, interactionStatus } from '../../domain/contacts/read';
import { countryName } from '../../domain/contacts/countries';
import type { Money } from '../../domain/money';
import { alternativeAmount, amount, epoch } from '../present';
import type { contactDetail, contactSearchItem } from './responses';

type Address = ContactRecord['contact']['addresses'][number];
type Phone = ContactRecord['contact']['phones'][number];

function idName(row: { id: string; name: string } | null) {
  return row ? { id: row.id, name: row.name } : null;
}

function presentAddress(a: Address) {
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

function presentPhone(p: Phone) {
  return { id: p.id, phone_type: p.phoneType, is_primary: p.isPrimary, country_code: p.countryCode, number: p.number };
}

function primaryEmail(emails: Array<{ isPrimary: boolean; emailAddress: string }>): string | null {
  return emails.find((e) => e.isPrimary)?.emailAddress ?? null;
}

/** The company profile JSON keeps amounts as decimal text; they leave as numbers. */
function presentProfile(profile: unknown) {
  const p = (profile ?? {}) as Record<string, unknown>;
  const turnover = p.annual_turnover;
  return typeof turnover === 'string' ? { ...p, annual_turnover: amount(turnover) } : p;
}

type ContactRow = ContactRecord['contact'] | ContactSearchRow['contact'];

/** The fields the get-contact response and the search item share. */
function shared(c: ContactRow, nameFormat: ContactRecord['nameFormat']) {
  return {
    id: c.id,
    code: c.code,
    contact_type: c.contactType as 'PERSON' | 'COMPANY',
    contact_name: contactName(c, nameFormat),
    statutory_number: c.statutoryNumber,
    category: idName(c.category),
    addresses: c.addresses.map(presentAddress),
    phones: c.phones.map(presentPhone),
    email_address: primaryEmail(c.emails),
    interaction_status: interactionStatus(c.lastActivityAt),
    kyc_profile: idName(c.kycProfile),
    kyc_status: c.kycStatus as 'PENDING' | 'VERIFIED' | null,
    loyalty_identifier: c.loyaltyIdentifier,
    registered_on: epoch(c.createdAt),
  };
}

export function presentContact(r: ContactRecord): z.input<typeof contactDetail> {
  const c = r.contact;
  return {
    ...shared(c, r.nameFormat),
    company_name: c.companyName,
    title: c.title,
    first_name: c.firstName,
    middle_name: c.middleName,
    last_name: c.lastName,
    preferred_language_code: c.preferredLanguageCode,
    notes: c.notes,
    is_tax_exempt: c.isTaxExempt,
    sms_opt_out: c.smsOptOut,
    email_opt_out: c.emailOptOut,
    direct_marketing: !c.smsOptOut && !c.emailOptOut,
    affiliate_marketing: c.affiliateMarketing,
    demographics: c.demographics as Record<string, unknown> | null,
    company_profile:
      c.contactType === 'COMPANY'
        ? {
            ...presentProfile(c.companyProfile),
            industry: idName(c.industry),
            industry_sectors: c.industrySectors.map((s) => ({ id: s.id, name: s.name })),
          }
        : null,
    emails: c.emails.map((e) => ({ id: e.id, email_type: e.emailType, is_primary: e.isPrimary, email_address: e.emailAddress })),
    custom_fields: c.customFields.map((f) => ({ key: f.key, value: f.value })),
    consent_state: c.consentState as 'ACCEPTED' | 'REJECTED' | 'WITHDRAWN' | null,
    is_anonymized: c.isAnonymized,
    total_spend: amount(r.totalSpend),
    referral_code: c.referralCode,
  };
}

export function presentSearchItem(r: ContactSearchRow, money?: { rate: Money | null; alternativeCurrencyCode: string | null }): z.input<typeof contactSearchItem> {
  const c = r.contact;
  const account = r.primaryAccount;
  const wallet = r.wallet;
  return {
    ...shared(c, r.nameFormat),
    ...(r.financials
      ? {
          financials: {
            // No invoices exist, so nothing is overdue (docs/money.md).
            account: account
              ? { id: account.id, number: account.number, life_cycle_state: account.lifeCycleState, currency_code: account.currencyCode, overdue_amount: 0, balance: amount(account.balance) }
              : null,
            wallet: wallet
              ? {
                  id: wallet.id, code: wallet.code, life_cycle_state: wallet.lifeCycleState, balance: amount(wallet.balance),
                  alternative_balance: alternativeAmount(money?.rate ?? null, wallet.balance),
                  wallet_currency_code: wallet.currencyCode, alternative_currency_code: money?.alternativeCurrencyCode ?? null,
                }
              : null,
          },
        }
      : {}),
    ...(r.metrics.length ? { metrics: Object.fromEntries(r.metrics.map((m) => [m, { timestamp: epoch(r.at), total: 0 }])) } : {}),
  };
}
