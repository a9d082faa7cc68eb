// The contact form's values and the API's create and update bodies (POST /contacts, PUT
// /contacts/{id}). The form edits the common fields: the primary address, phone and e-mail; the
// API's other fields stay as they are (an update is partial).
import type { Contact, ContactCreate, ContactUpdate, CountryCode } from './types';

export interface ContactDraft {
  contact_type: 'PERSON' | 'COMPANY';
  code: string;
  title: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  company_name: string;
  email_address: string;
  phone_number: string;
  phone_country: string;
  address_line_1: string;
  address_line_2: string;
  town_city: string;
  postal_code: string;
  state_province_county: string;
  country_code: string;
  preferred_language_code: string;
  email_opt_out: boolean;
  sms_opt_out: boolean;
  affiliate_marketing: boolean;
  notes: string;
  /** Create only: one account with the organisation's defaults, so wallets can be added at once. */
  create_default_account: boolean;
}

export const EMPTY_DRAFT: ContactDraft = {
  contact_type: 'PERSON', code: '', title: '', first_name: '', middle_name: '', last_name: '', company_name: '',
  email_address: '', phone_number: '', phone_country: '', address_line_1: '', address_line_2: '', town_city: '',
  postal_code: '', state_province_county: '', country_code: '', preferred_language_code: '',
  email_opt_out: false, sms_opt_out: false, affiliate_marketing: false, notes: '', create_default_account: true,
};

const ADDRESS_FIELDS = ['address_line_1', 'address_line_2', 'town_city', 'postal_code', 'state_province_county', 'country_code'] as const;

const primaryOf = <T extends { is_primary: boolean }>(items: T[]): T | undefined => items.find((i) => i.is_primary) ?? items[0];

/** The ids of the stored primary address and phone, which an update changes in place. */
export interface StoredItems {
  addressId?: string;
  phoneId?: string;
}

export function draftOf(c: Contact): { draft: ContactDraft; items: StoredItems } {
  const address = primaryOf(c.addresses);
  const phone = primaryOf(c.phones);
  const text = (v: string | null | undefined) => v ?? '';
  return {
    draft: {
      contact_type: c.contact_type, code: text(c.code), title: text(c.title), first_name: text(c.first_name), middle_name: text(c.middle_name),
      last_name: text(c.last_name), company_name: text(c.company_name), email_address: text(c.email_address),
      phone_number: text(phone?.number), phone_country: text(phone?.country_code),
      address_line_1: text(address?.address_line_1), address_line_2: text(address?.address_line_2), town_city: text(address?.town_city),
      postal_code: text(address?.postal_code), state_province_county: text(address?.state_province_county), country_code: text(address?.country_code),
      preferred_language_code: text(c.preferred_language_code), email_opt_out: c.email_opt_out, sms_opt_out: c.sms_opt_out,
      affiliate_marketing: c.affiliate_marketing, notes: text(c.notes), create_default_account: false,
    },
    items: { addressId: address?.id, phoneId: phone?.id },
  };
}

const trimmed = (v: string) => v.trim();
/** Create: an empty field is left out (the API's default). */
const given = (v: string) => (v.trim() ? v.trim() : undefined);
/** Update: an empty field clears the stored value. */
const cleared = (v: string) => (v.trim() ? v.trim() : null);

const names = (d: ContactDraft, value: (v: string) => string | null | undefined) =>
  d.contact_type === 'PERSON'
    ? { title: value(d.title), first_name: value(d.first_name), middle_name: value(d.middle_name), last_name: value(d.last_name) }
    : { company_name: value(d.company_name) };

export function createBody(d: ContactDraft): ContactCreate {
  const hasAddress = ADDRESS_FIELDS.some((f) => d[f].trim());
  return {
    contact_type: d.contact_type,
    code: given(d.code),
    ...names(d, given),
    email_address: given(d.email_address),
    phones: d.phone_number.trim() ? [{ is_primary: true, number: trimmed(d.phone_number), country_code: given(d.phone_country) as CountryCode | undefined }] : undefined,
    addresses: hasAddress ? [{ is_primary: true, ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, given(d[f])])) }] : undefined,
    preferred_language_code: given(d.preferred_language_code),
    email_opt_out: d.email_opt_out,
    sms_opt_out: d.sms_opt_out,
    affiliate_marketing: d.affiliate_marketing,
    notes: given(d.notes),
    create_default_account: d.create_default_account || undefined,
  };
}

export function updateBody(d: ContactDraft, items: StoredItems): ContactUpdate {
  const hasAddress = ADDRESS_FIELDS.some((f) => d[f].trim());
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, cleared(d[f])]));
  // Items are changed in place by id; an update never deletes one (docs/contacts.md), so an emptied
  // phone number is left as it was rather than sent.
  const addresses = items.addressId ? [{ id: items.addressId, ...address }] : hasAddress ? [{ is_primary: true, ...address }] : undefined;
  const phones = d.phone_number.trim() ? [{ ...(items.phoneId ? { id: items.phoneId } : { is_primary: true }), number: trimmed(d.phone_number), country_code: cleared(d.phone_country) as CountryCode | null }] : undefined;
  return {
    code: cleared(d.code),
    ...names(d, cleared),
    email_address: cleared(d.email_address),
    phones,
    addresses,
    preferred_language_code: cleared(d.preferred_language_code),
    email_opt_out: d.email_opt_out,
    sms_opt_out: d.sms_opt_out,
    affiliate_marketing: d.affiliate_marketing,
    notes: cleared(d.notes),
  };
}

const DRAFT_KEYS = new Set(Object.keys(EMPTY_DRAFT));

/** The form field an API attribute names (`addresses.0.country_code` → `country_code`), if any. */
export function fieldOfAttribute(attribute: string): keyof ContactDraft | undefined {
  const [head, , leaf] = attribute.split('.');
  if (head === 'addresses') return leaf && (ADDRESS_FIELDS as readonly string[]).includes(leaf) ? (leaf as keyof ContactDraft) : 'address_line_1';
  if (head === 'phones') return leaf === 'country_code' ? 'phone_country' : 'phone_number';
  if (head === 'emails') return 'email_address';
  if (head === 'direct_marketing') return 'email_opt_out';
  return DRAFT_KEYS.has(attribute) ? (attribute as keyof ContactDraft) : undefined;
}
