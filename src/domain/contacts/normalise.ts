// Rules that only look at the request: PERSON/COMPANY fields, the two body shapes of spec 2.1
// (main and "alternative"), and the one-primary-item rule.
import { invalid } from '../errors';
import type { ContactFields, ContactType, EmailInput, Ref } from './types';

const PERSON_ONLY = ['title', 'middle_name', 'demographics'] as const;
const COMPANY_ONLY = ['company_profile'] as const;

/**
 * PERSON needs first and last name, COMPANY needs company_name; fields of the other type are
 * refused by name. On update (`partial`) a required name may be omitted, not cleared.
 */
export function checkTypeRules(type: ContactType, f: ContactFields, partial: boolean): void {
  const other = type === 'PERSON' ? COMPANY_ONLY : PERSON_ONLY;
  for (const field of other) {
    if (f[field] !== undefined && f[field] !== null) throw invalid(field, `${field} is allowed only for ${type === 'PERSON' ? 'COMPANY' : 'PERSON'} contacts`);
  }
  const required = type === 'PERSON' ? (['first_name', 'last_name'] as const) : (['company_name'] as const);
  for (const field of required) {
    const value = f[field];
    const missing = partial ? value === null || (typeof value === 'string' && value.trim() === '') : !value || value.trim() === '';
    if (missing) throw invalid(field, `${field} is required for ${type} contacts`);
  }
}

export interface Marketing {
  smsOptOut?: boolean;
  emailOptOut?: boolean;
  affiliateMarketing?: boolean;
}

/**
 * The alternative shape says `direct_marketing` instead of the two opt-out flags:
 * direct_marketing=true means both opt-outs are false, false means both are true. Giving both
 * forms in one body is ambiguous and refused.
 */
export function marketing(f: ContactFields): Marketing {
  const out: Marketing = { affiliateMarketing: f.affiliate_marketing };
  if (f.direct_marketing !== undefined) {
    if (f.sms_opt_out !== undefined || f.email_opt_out !== undefined) {
      throw invalid('direct_marketing', 'direct_marketing replaces sms_opt_out and email_opt_out: give one form');
    }
    out.smsOptOut = !f.direct_marketing;
    out.emailOptOut = !f.direct_marketing;
  } else {
    out.smsOptOut = f.sms_opt_out;
    out.emailOptOut = f.email_opt_out;
  }
  return out;
}

/** `category_id` (main shape) or `category {id|code}` (alternative), not both. */
export function categoryRef(f: ContactFields): Ref | null | undefined {
  if (f.category_id !== undefined && f.category !== undefined) throw invalid('category', 'give category_id or category, not both');
  if (f.category_id !== undefined) return f.category_id === null ? null : { id: f.category_id };
  return f.category;
}

/** `email_address` (main shape) is the primary e-mail; `emails[]` (alternative) lists them all. */
export function emailList(f: ContactFields): EmailInput[] | undefined {
  if (f.email_address !== undefined && f.emails !== undefined) throw invalid('emails', 'give email_address or emails, not both');
  if (f.emails !== undefined) return f.emails;
  if (f.email_address) return [{ email_address: f.email_address, is_primary: true, email_type: 'PERSONAL' }];
  return undefined;
}

/** At most one item of a list may say is_primary; the second one is named. */
export function checkOnePrimary(list: Array<{ is_primary?: boolean }> | undefined, attribute: string): void {
  if (!list) return;
  const primaries = list.map((item, i) => (item.is_primary ? i : -1)).filter((i) => i >= 0);
  if (primaries.length > 1) throw invalid(`${attribute}.${primaries[1]}.is_primary`, `only one of ${attribute} can be primary`);
}

/** On create: the marked item is primary, or the first when none is marked. */
export function primaryFlags<T extends { is_primary?: boolean }>(list: T[]): boolean[] {
  const marked = list.findIndex((item) => item.is_primary);
  return list.map((_, i) => i === (marked >= 0 ? marked : 0));
}

/** Custom field keys are unique per contact; the same key twice in one body is ambiguous. */
export function checkUniqueKeys(fields: Array<{ key: string }> | undefined, attribute: string): void {
  const seen = new Set<string>();
  for (const [i, f] of (fields ?? []).entries()) {
    if (seen.has(f.key)) throw invalid(`${attribute}.${i}.key`, `${attribute}.${i}.key: key '${f.key}' is given twice`);
    seen.add(f.key);
  }
}
