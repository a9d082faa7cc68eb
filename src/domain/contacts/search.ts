// GET /contacts (spec 4.1 search). Filtering, sorting and paging run as one SQL statement over
// indexed expressions (docs/contacts.md lists the indexes); the page's contacts are then read
// with their relations by one more (SEARCH_PAGE_STATEMENT) and shaped as spec 2.1 "Search item".
import { SqlParams } from '../../db/sql-params';
import type { OrgSql } from '../../db/sql';
import { getNameDisplayFormat, type NameDisplayFormat } from '../reference';
import type { ListPage } from '../lists';
import { fromJson, type ContactJson, type ContactSearchRow } from './read';
import { SEARCH_PAGE_STATEMENT } from './read-statement';
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

export async function searchContacts(sql: OrgSql, organisationId: string, q: ContactSearch): Promise<ListPage<ContactSearchRow>> {
  // The caller sees only its own organisation; naming another one is an empty result, not an error.
  if (q.organisation_id !== undefined && q.organisation_id !== organisationId) return { rows: [], total: 0 };
  const nameFormat = await getNameDisplayFormat(sql, organisationId);
  const params = new SqlParams();
  const where = conditions(params, q).join(' AND ');
  const direction = q.order === 'ASC' ? 'ASC' : 'DESC';
  // The total rides along with the page (one statement); only a page past the end needs a count.
  const page = await sql.rows<{ id: string; total: number }>(
    `SELECT c.id, (count(*) OVER ())::int AS total FROM contacts c WHERE ${where}
     ORDER BY ${sortKey(q.sort, nameFormat)} ${direction} NULLS LAST, c.id ${direction}
     ${params.page(q)}`,
    params.values,
  );
  if (page.length === 0) {
    if (q.page === 1) return { rows: [], total: 0 };
    const count = new SqlParams();
    const [{ total }] = await sql.rows<{ total: number }>(`SELECT count(*)::int AS total FROM contacts c WHERE ${conditions(count, q).join(' AND ')}`, count.values);
    return { rows: [], total };
  }
  const documents = await sql.rows<{ contact: ContactJson; account: ContactSearchRow['primaryAccount']; wallet: ContactSearchRow['wallet'] }>(SEARCH_PAGE_STATEMENT, [page.map((r) => r.id)]);
  const byId = new Map(documents.map((d) => [d.contact.id, d]));
  const at = new Date();
  const rows = page.flatMap(({ id }) => {
    const found = byId.get(id);
    if (!found) return [];
    return [{ contact: fromJson(found.contact), nameFormat, financials: q.financials === true, primaryAccount: found.account, wallet: found.wallet, metrics: q.metrics ?? [], at }];
  });
  return { rows, total: page[0].total };
}

/** The filters of the search alone (no paging, sorting or extras): what a segment stores. */
export type ContactFilters = Omit<ContactSearch, 'page' | 'size' | 'sort' | 'order' | 'financials' | 'metrics' | 'organisation_id'>;

/**
 * The search's condition over `contacts c` for other readers of the same filters (segments):
 * `where` uses $1 (the organisation) and `values` as $2, $3, …
 */
export function contactFilterCondition(q: ContactFilters): { where: string; values: unknown[] } {
  const params = new SqlParams();
  return { where: conditions(params, q).join(' AND '), values: params.values };
}

function conditions(p: SqlParams, q: ContactFilters): string[] {
  const on = ['c.organisation_id = $1'];
  const lowerEq = (column: string, value: string | undefined) => {
    if (value !== undefined) on.push(`lower(c.${column}) = lower(${p.add(value)})`);
  };
  if (q.search_value) on.push(`c.search_text LIKE ${p.add(containsPattern(q.search_value))}`);
  lowerEq('code', q.code);
  lowerEq('first_name', q.first_name);
  lowerEq('last_name', q.last_name);
  lowerEq('company_name', q.company_name);
  lowerEq('loyalty_identifier', q.loyalty_identifier);
  // The customer identification medium the contact carries today is its loyalty identifier.
  lowerEq('loyalty_identifier', q.cim);
  if (q.statutory_number !== undefined) on.push(`c.statutory_number = ${p.add(q.statutory_number)}`);
  if (q.email_address !== undefined) {
    on.push(`c.id IN (SELECT e.contact_id FROM contact_emails e WHERE e.organisation_id = $1 AND lower(e.email_address) = lower(${p.add(q.email_address)}))`);
  }
  if (q.phone_number !== undefined) {
    const digits = q.phone_number.replace(/\D/g, '');
    on.push(`c.id IN (SELECT p.contact_id FROM contact_phones p WHERE p.organisation_id = $1 AND regexp_replace(p.number, '\\D', '', 'g') = ${p.add(digits)})`);
  }
  if (q.registered_on_from !== undefined) on.push(`c.created_at >= to_timestamp(${p.add(q.registered_on_from)})`);
  // Inclusive to the end of the given second.
  if (q.registered_on_to !== undefined) on.push(`c.created_at < to_timestamp(${p.add(q.registered_on_to + 1)})`);
  return on;
}

/** A contact's name as a sort key, as it reads: the company name, else the person's names in display order. */
export function nameSortKey(format: NameDisplayFormat, alias: string): string {
  const names = format.startsWith('LAST') ? `${alias}.last_name, ${alias}.first_name` : `${alias}.first_name, ${alias}.last_name`;
  return `lower(coalesce(${alias}.company_name, concat_ws(' ', ${names})))`;
}

function sortKey(sort: ContactSearch['sort'], format: NameDisplayFormat): string {
  switch (sort) {
    case 'contact_name':
      return nameSortKey(format, 'c');
    case 'code':
      return 'lower(c.code)';
    case 'last_name':
      return 'lower(c.last_name)';
    case 'company_name':
      return 'lower(c.company_name)';
    default:
      return 'c.created_at';
  }
}
