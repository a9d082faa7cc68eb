// GET /contacts (spec 4.1 search). Filtering, sorting and paging run as one SQL statement over
// indexed expressions (docs/contacts.md lists the indexes); the page's contacts are then loaded
// with their relations and shaped as spec 2.1 "Search item".
import { Prisma, type Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { getNameDisplayFormat, type NameDisplayFormat } from '../reference';
import type { ListPage } from '../lists';
import { searchInclude, type ContactSearchRow } from './read';
import { containsPattern } from './search-text';

export const CONTACT_SORT_FIELDS = ['registered_on', 'contact_name', 'code', 'last_name', 'company_name'] as const;
export const CONTACT_METRICS = ['subscriptions', 'schemes'] as const;

export interface ContactSearch {
  search_value?: string;
  code?: string;
  first_name?: string;
  last_name?: string;
  company_name?: string;
  email_address?: string;
  phone_number?: string;
  statutory_number?: string;
  cim?: string;
  loyalty_identifier?: string;
  registered_on_from?: number;
  registered_on_to?: number;
  organisation_id?: string;
  financials?: boolean;
  metrics?: Array<(typeof CONTACT_METRICS)[number]>;
  page: number;
  size: number;
  sort?: (typeof CONTACT_SORT_FIELDS)[number];
  order: 'ASC' | 'DESC';
}

export async function searchContacts(tx: Tx, sql: OrgSql, organisationId: string, q: ContactSearch): Promise<ListPage<ContactSearchRow>> {
  // The caller sees only its own organisation; naming another one is an empty result, not an error.
  if (q.organisation_id !== undefined && q.organisation_id !== organisationId) return { rows: [], total: 0 };
  const nameFormat = await getNameDisplayFormat(sql, organisationId);
  const where = Prisma.join(conditions(organisationId, q), ' AND ');
  const direction = Prisma.raw(q.order === 'ASC' ? 'ASC' : 'DESC');
  // The total rides along with the page (one statement); only a page past the end needs a count.
  const page = await tx.$queryRaw<Array<{ id: string; total: number }>>`
    SELECT c.id::text AS id, (count(*) OVER ())::int AS total FROM contacts c WHERE ${where}
    ORDER BY ${sortKey(q.sort, nameFormat)} ${direction} NULLS LAST, c.id ${direction}
    LIMIT ${q.size} OFFSET ${(q.page - 1) * q.size}`;
  if (page.length === 0) {
    if (q.page === 1) return { rows: [], total: 0 };
    const [{ total }] = await tx.$queryRaw<Array<{ total: number }>>`SELECT count(*)::int AS total FROM contacts c WHERE ${where}`;
    return { rows: [], total };
  }
  const contacts = await tx.contact.findMany({ where: { id: { in: page.map((r) => r.id) } }, include: searchInclude });
  const byId = new Map(contacts.map((c) => [c.id, c]));
  const at = new Date();
  const rows = page.flatMap(({ id }) => {
    const contact = byId.get(id);
    if (!contact) return [];
    const primaryAccount = contact.accounts[0] ?? null;
    return [{ contact, nameFormat, financials: q.financials === true, primaryAccount, metrics: q.metrics ?? [], at }];
  });
  return { rows, total: page[0].total };
}

function conditions(organisationId: string, q: ContactSearch): Prisma.Sql[] {
  const on: Prisma.Sql[] = [Prisma.sql`c.organisation_id = ${organisationId}::uuid`];
  const lowerEq = (column: string, value: string | undefined) => {
    if (value !== undefined) on.push(Prisma.sql`lower(${Prisma.raw(`c.${column}`)}) = lower(${value})`);
  };
  if (q.search_value) on.push(Prisma.sql`c.search_text LIKE ${containsPattern(q.search_value)}`);
  lowerEq('code', q.code);
  lowerEq('first_name', q.first_name);
  lowerEq('last_name', q.last_name);
  lowerEq('company_name', q.company_name);
  lowerEq('loyalty_identifier', q.loyalty_identifier);
  // The customer identification medium the contact carries today is its loyalty identifier.
  lowerEq('loyalty_identifier', q.cim);
  if (q.statutory_number !== undefined) on.push(Prisma.sql`c.statutory_number = ${q.statutory_number}`);
  if (q.email_address !== undefined) {
    on.push(Prisma.sql`c.id IN (SELECT e.contact_id FROM contact_emails e WHERE e.organisation_id = ${organisationId}::uuid AND lower(e.email_address) = lower(${q.email_address}))`);
  }
  if (q.phone_number !== undefined) {
    const digits = q.phone_number.replace(/\D/g, '');
    on.push(Prisma.sql`c.id IN (SELECT p.contact_id FROM contact_phones p WHERE p.organisation_id = ${organisationId}::uuid AND regexp_replace(p.number, '\\D', '', 'g') = ${digits})`);
  }
  if (q.registered_on_from !== undefined) on.push(Prisma.sql`c.created_at >= to_timestamp(${q.registered_on_from})`);
  // Inclusive to the end of the given second.
  if (q.registered_on_to !== undefined) on.push(Prisma.sql`c.created_at < to_timestamp(${q.registered_on_to + 1})`);
  return on;
}

/** contact_name sorts like it reads: company name, else the person's names in display order. */
function sortKey(sort: ContactSearch['sort'], format: NameDisplayFormat): Prisma.Sql {
  switch (sort) {
    case 'contact_name': {
      const lastFirst = format.startsWith('LAST');
      return Prisma.raw(`lower(coalesce(c.company_name, concat_ws(' ', ${lastFirst ? 'c.last_name, c.first_name' : 'c.first_name, c.last_name'})))`);
    }
    case 'code':
      return Prisma.raw('lower(c.code)');
    case 'last_name':
      return Prisma.raw('lower(c.last_name)');
    case 'company_name':
      return Prisma.raw('lower(c.company_name)');
    default:
      return Prisma.raw('c.created_at');
  }
}

