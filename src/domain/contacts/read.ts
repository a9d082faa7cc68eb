// GET /contacts/{id} (spec 2.1 "Get-contact response"): the stored contact plus its derived
// fields: contact_name, reference names, country names, interaction_status and total_spend.
import type { Prisma, Tx } from '../../db/client';
import { Money } from '../money';
import { formatContactName, getNameDisplayFormat, type NameDisplayFormat } from '../reference';
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
export async function totalSpendLast12Months(_tx: Tx, _contactId: string): Promise<Money> {
  return new Money(0);
}

export type ContactWithRelations = Prisma.ContactGetPayload<{ include: typeof contactInclude & { customFields: true } }>;

/** A contact as GET /contacts/{id} presents it: the row, its relations, and what is derived. */
export interface ContactRecord {
  contact: ContactWithRelations;
  /** Names of the contact's industry sectors (kept as an id array, so not a relation). */
  sectors: Array<{ id: string; name: string }>;
  nameFormat: NameDisplayFormat;
  totalSpend: Money;
}

export async function getContact(tx: Tx, organisationId: string, idOrCode: string): Promise<ContactRecord> {
  // The lookup by id or code and the relations in one call (lookup.ts explains the id-or-code rule).
  const rows = await tx.contact.findMany({
    where: idOrCodeWhere(idOrCode),
    include: { ...contactInclude, customFields: { orderBy: { key: 'asc' } } },
    take: 2,
  });
  const contact = pickByIdOrCode(rows, idOrCode);
  if (!contact) throw notFound('Contact');
  const sectors = contact.industrySectorIds.length
    ? await tx.industrySector.findMany({ where: { id: { in: contact.industrySectorIds } }, select: { id: true, name: true } })
    : [];
  return { contact, sectors, nameFormat: await getNameDisplayFormat(tx, organisationId), totalSpend: await totalSpendLast12Months(tx, contact.id) };
}

/** A search hit as GET /contacts presents it. */
export interface ContactSearchRow {
  contact: Prisma.ContactGetPayload<{ include: typeof searchInclude }>;
  nameFormat: NameDisplayFormat;
  /** Asked for with `financials=true`. */
  financials: boolean;
  primaryAccount: { id: string; number: string; lifeCycleState: string; currencyCode: string } | null;
  metrics: readonly string[];
  at: Date;
}

export const searchInclude = {
  category: { select: { id: true, name: true } },
  kycProfile: { select: { id: true, name: true } },
  addresses: { orderBy: oldestFirst },
  phones: { orderBy: oldestFirst },
  emails: { where: { isPrimary: true } },
  accounts: { where: { isPrimary: true }, select: { id: true, number: true, lifeCycleState: true, currencyCode: true } },
} satisfies Prisma.ContactInclude;
