// Inputs of the contact operations, in the field names of spec 2.1 (the HTTP schemas produce
// exactly these shapes after validation). Both the main and the "alternative contact shape"
// arrive here; normalise.ts turns them into one.

/** A reference given by id or by code (alternative shape). */
export interface Ref {
  id?: string;
  code?: string;
}

export type ContactType = 'PERSON' | 'COMPANY';

export interface AddressInput {
  id?: string;
  address_type?: string | null;
  is_primary?: boolean;
  care_of?: string | null;
  address_line_1?: string | null;
  address_line_2?: string | null;
  state_province_county?: string | null;
  town_city?: string | null;
  postal_code?: string | null;
  country_code?: string | null;
  lat?: number | null;
  lon?: number | null;
  googlePlaceId?: string | null;
}

export interface PhoneInput {
  id?: string;
  phone_type?: string | null;
  is_primary?: boolean;
  country_code?: string | null;
  number?: string;
}

export interface EmailInput {
  id?: string;
  email_type?: string | null;
  is_primary?: boolean;
  email_address?: string;
}

export interface CustomFieldInput {
  key: string;
  value: string | null;
}

export interface AccountInput {
  name?: string | null;
  is_primary?: boolean;
  credit_limit?: string | null;
  currency_code?: string;
  classification_id?: string;
  classification?: Ref;
  credit_rating?: string | null;
  is_tax_exempt?: boolean;
}

export interface Demographics {
  gender?: 'MALE' | 'FEMALE' | null;
  country_of_residence?: string | null;
  passport?: { passport_number?: string | null; issue_country_code?: string | null; expiration_date?: number | null } | null;
  id_details?: { id_number?: string | null; issue_country_code?: string | null; expiration_date?: number | null } | null;
  name_day?: { month: number; day: number } | null;
  date_of_birth?: { year: number; month: number; day: number } | null;
}

export interface CompanyProfileInput {
  industry_id?: string | null;
  industry?: Ref | null;
  industry_sectors?: Array<string | Ref>;
  profile_year?: number | null;
  annual_turnover?: string | null;
  established_on?: number | null;
  number_of_employees?: number | null;
  registration_number?: string | null;
  registration_country?: string | null;
  tax_reference_number?: string | null;
  vat_registration_number?: string | null;
}

/** Fields shared by create and update. `undefined` = not supplied; `null` = clear. */
export interface ContactFields {
  code?: string | null;
  company_name?: string | null;
  title?: string | null;
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
  preferred_language_code?: string | null;
  statutory_number?: string | null;
  notes?: string | null;
  sms_opt_out?: boolean;
  email_opt_out?: boolean;
  direct_marketing?: boolean;
  affiliate_marketing?: boolean;
  is_tax_exempt?: boolean;
  category_id?: string | null;
  category?: Ref | null;
  demographics?: Demographics | null;
  company_profile?: CompanyProfileInput | null;
  addresses?: AddressInput[];
  phones?: PhoneInput[];
  email_address?: string | null;
  emails?: EmailInput[];
  custom_fields?: CustomFieldInput[];
  referral_code?: string | null;
  loyalty_identifier?: string | null;
}

export interface ContactCreateInput extends ContactFields {
  id?: string;
  contact_type: ContactType;
  create_default_account?: boolean;
  accounts?: AccountInput[];
}

export type ContactUpdateInput = ContactFields;

export interface BulkUpdateItem {
  contact: Ref;
  category?: Ref | null;
  custom_fields?: CustomFieldInput[];
}

export type ConsentState = 'ACCEPTED' | 'REJECTED' | 'WITHDRAWN';
