// GET /contacts/{id} (spec 2.1 "Get-contact response"): the stored contact plus its derived
// fields: contact_name, reference names, country names, interaction_status and total_spend.
import type { Contact, ContactAddress, ContactEmail, ContactPhone } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import type { CustomField } from '../custom-fields/values';
import { Money } from '../money';
import { formatContactName, getNameDisplayFormat, type NameDisplayFormat } from '../reference';
import { CONTACT_DEFAULTS } from './defaults';
import { notFound } from '../errors';
import { CONTACT_STATEMENT, contactStatementParams } from './read-statement';


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

type IdName = { id: string; name: string };
type Child<T> = Omit<T, 'organisationId' | 'contactId' | 'createdAt' | 'updatedAt'>;

/** The contact as CONTACT_STATEMENT builds it: the row's own fields and its relations. */
export type ContactDocument = Omit<Contact, 'organisationId' | 'categoryId' | 'industryId' | 'kycProfileId' | 'searchText'> & {
  category: IdName | null;
  kycProfile: IdName | null;
  industry: IdName | null;
  industrySectors: IdName[];
  addresses: Array<Child<ContactAddress>>;
  phones: Array<Child<ContactPhone>>;
  emails: Array<Child<ContactEmail>>;
  /** As stored: text, or a DATE's epoch seconds (docs/custom-fields.md). */
  customFields: CustomField[];
};

/** A contact as GET /contacts/{id} presents it: the document and what is derived. */
export interface ContactRecord {
  contact: ContactDocument;
  nameFormat: NameDisplayFormat;
  totalSpend: Money;
}

/** JSON has no time type: the statement's times arrive as ISO text. */
type AsJson<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
export type ContactJson = AsJson<ContactDocument>;

export function fromJson(c: ContactJson): ContactDocument {
  return {
    ...c,
    anonymizedAt: c.anonymizedAt === null ? null : new Date(c.anonymizedAt),
    lastActivityAt: new Date(c.lastActivityAt),
    createdAt: new Date(c.createdAt),
    updatedAt: new Date(c.updatedAt),
  };
}

export async function getContact(sql: OrgSql, organisationId: string, idOrCode: string): Promise<ContactRecord> {
  const [row] = await sql.rows<{ contact: ContactJson; totalSpend: string }>(CONTACT_STATEMENT, contactStatementParams(idOrCode));
  if (!row) throw notFound('Contact');
  return { contact: fromJson(row.contact), nameFormat: await getNameDisplayFormat(sql, organisationId), totalSpend: new Money(row.totalSpend) };
}

/** A search hit as GET /contacts presents it. */
export interface ContactSearchRow {
  contact: ContactDocument;
  nameFormat: NameDisplayFormat;
  /** Asked for with `financials=true`. */
  financials: boolean;
  primaryAccount: { id: string; number: string; lifeCycleState: string; currencyCode: string; balance: string } | null;
  /** The primary account's first wallet that is not cancelled. */
  wallet: { id: string; code: string; lifeCycleState: string; currencyCode: string; balance: string } | null;
  metrics: readonly string[];
  at: Date;
}
