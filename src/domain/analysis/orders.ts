// GET /contact_order_analysis (spec 4.1; docs/analysis.md). The orders are this service's
// purchases: the POSTED ones, in one currency (the organisation's system currency unless asked
// otherwise), performed in the window asked for. One row per contact with at least one such
// order. One statement per page: the aggregates by contact (GROUP BY over the purchases index),
// then the preferred outlet and payment method of the page's contacts only; the total rides along.
import type { OrgSql } from '../../db/sql';
import { contactName } from '../contacts/read';
import type { ListPage } from '../lists';
import { SETTINGS_DEFAULTS } from '../money/settings';
import { getNameDisplayFormat } from '../reference';
import { SqlParams } from '../../db/sql-params';
import { daysSince, orderBy, resolveRef, ZONE, type RefFilter } from './filters';
import { nameSortKey } from '../contacts/search';

export const ORDER_SORT_FIELDS = [
  'name', 'code', 'category', 'number_of_orders', 'total_order_amount', 'average_order_value', 'days_since_last_order',
] as const;

export interface OrderAnalysisQuery {
  order_date_from?: number;
  order_date_to?: number;
  currency_code?: string;
  category: RefFilter;
  sort?: (typeof ORDER_SORT_FIELDS)[number];
  order: 'ASC' | 'DESC';
  page: number;
  size: number;
}

export interface OrderAnalysisRow {
  id: string;
  name: string;
  code: string | null;
  category: { id: string; name: string } | null;
  numberOfOrders: number;
  /** Decimal text: the orders' totals less what was returned of them. */
  totalOrderAmount: string;
  /** Decimal text: total / number, rounded half up to 2 decimals. */
  averageOrderValue: string;
  currency: string;
  daysSinceLastOrder: number;
  preferredSupplyMethod: { id: string; name: string } | null;
  preferredPaymentMethod: { id: string; type: string; brand: string | null; fundingType: string | null } | null;
}

type Row = Omit<OrderAnalysisRow, 'name'> & {
  contactType: string; companyName: string | null; title: string | null; firstName: string | null; middleName: string | null; lastName: string | null;
  total: number;
};

/** The orders counted, as conditions on `purchases p`; `scope.currency` is the currency chosen. */
function orderConditions(params: SqlParams, q: OrderAnalysisQuery): string {
  const on = ["p.organisation_id = $1", "p.life_cycle_state = 'POSTED'", 'p.currency_code = scope.currency'];
  if (q.order_date_from !== undefined) on.push(`p.performed_on >= to_timestamp(${params.add(q.order_date_from)})`);
  // Inclusive to the end of the given second.
  if (q.order_date_to !== undefined) on.push(`p.performed_on < to_timestamp(${params.add(q.order_date_to + 1)})`);
  return on.join(' AND ');
}

/** The currency asked for, else the system currency (organisation_settings, else the default). */
function scope(params: SqlParams, q: OrderAnalysisQuery): string {
  return `scope AS (SELECT COALESCE(${params.add(q.currency_code ?? null)}::text,
    (SELECT s.system_currency_code FROM organisation_settings s WHERE s.organisation_id = $1), ${params.add(SETTINGS_DEFAULTS.systemCurrencyCode)}::text) AS currency)`;
}

export async function contactOrderAnalysis(sql: OrgSql, organisationId: string, q: OrderAnalysisQuery): Promise<ListPage<OrderAnalysisRow>> {
  const categoryId = await resolveRef(sql, 'category', q.category);
  const format = await getNameDisplayFormat(sql, organisationId);
  const params = new SqlParams();
  const orders = orderConditions(params, q);
  const category = categoryId === undefined ? '' : `AND c.category_id = ${params.add(categoryId)}::uuid`;
  const sortKeys: Record<(typeof ORDER_SORT_FIELDS)[number], string> = {
    name: nameSortKey(format, 'c'),
    code: 'lower(c.code)',
    category: 'lower(cat.name)',
    number_of_orders: 'o.number',
    total_order_amount: 'o.amount',
    average_order_value: 'o.amount / o.number',
    days_since_last_order: daysSince('o.last'),
  };
  // The most frequent, then the most recently used, then the lowest id: one answer per contact.
  const preferred = (id: string) => `ORDER BY count(*) DESC, max(p.performed_on) DESC, ${id} LIMIT 1`;
  const text = `WITH ${scope(params, q)}, per_contact AS (
    SELECT p.contact_id, count(*)::int AS number, SUM(p.total_amount - p.returned_amount) AS amount, max(p.performed_on) AS last
    FROM purchases p CROSS JOIN scope WHERE ${orders}
    GROUP BY p.contact_id
  ), page AS (
    SELECT c.id, c.code, c.contact_type, c.company_name, c.title, c.first_name, c.middle_name, c.last_name, cat.id AS category_id, cat.name AS category_name,
      o.number, o.amount, o.last,
      row_number() OVER (ORDER BY ${orderBy(sortKeys[q.sort ?? 'total_order_amount'], q.order, 'c.id')}) AS position,
      (count(*) OVER ())::int AS total
    FROM per_contact o CROSS JOIN ${ZONE}
    JOIN contacts c ON c.organisation_id = $1 AND c.id = o.contact_id ${category}
    LEFT JOIN contact_categories cat ON cat.organisation_id = $1 AND cat.id = c.category_id
    ORDER BY position ${params.page(q)}
  )
  SELECT l.id, l.code, l.contact_type AS "contactType", l.company_name AS "companyName", l.title, l.first_name AS "firstName",
    l.middle_name AS "middleName", l.last_name AS "lastName",
    CASE WHEN l.category_id IS NULL THEN NULL ELSE json_build_object('id', l.category_id, 'name', l.category_name) END AS category,
    l.number AS "numberOfOrders", l.amount::text AS "totalOrderAmount", round(l.amount / l.number, 2)::text AS "averageOrderValue",
    scope.currency, ${daysSince('l.last')} AS "daysSinceLastOrder",
    (SELECT json_build_object('id', u.id, 'name', u.name) FROM purchases p
      JOIN network_units u ON u.organisation_id = $1 AND u.id = COALESCE(p.outlet_unit_id, p.merchant_unit_id)
      WHERE p.contact_id = l.id AND ${orders} GROUP BY u.id, u.name ${preferred('u.id')}) AS "preferredSupplyMethod",
    (SELECT json_build_object('id', m.id, 'type', m.type, 'brand', m.brand, 'fundingType', m.funding_type) FROM purchases p
      CROSS JOIN LATERAL (SELECT x.id, x.type, x.brand, x.funding_type FROM payment_methods x
        WHERE x.organisation_id = $1 AND x.contact_id = p.contact_id AND x.deleted_at IS NULL
          AND p.payment_medium_identifier IN (x.fingerprint, x.last4, x.masked_number, x.iban)
        ORDER BY x.created_at, x.id LIMIT 1) m
      WHERE p.contact_id = l.id AND ${orders} GROUP BY m.id, m.type, m.brand, m.funding_type ${preferred('m.id')}) AS "preferredPaymentMethod",
    l.total
  FROM page l CROSS JOIN scope CROSS JOIN ${ZONE}
  ORDER BY l.position`;
  const rows = await sql.rows<Row>(text, params.values);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && q.page > 1) {
    // Only a page past the end needs a count of its own.
    const count = new SqlParams();
    [{ total }] = await sql.rows<{ total: number }>(
      `WITH ${scope(count, q)} SELECT count(DISTINCT p.contact_id)::int AS total FROM purchases p CROSS JOIN scope
       JOIN contacts c ON c.organisation_id = $1 AND c.id = p.contact_id WHERE ${orderConditions(count, q)}
       ${categoryId === undefined ? '' : `AND c.category_id = ${count.add(categoryId)}::uuid`}`,
      count.values,
    );
  }
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id, name: contactName(r, format), code: r.code, category: r.category, numberOfOrders: r.numberOfOrders,
      totalOrderAmount: r.totalOrderAmount, averageOrderValue: r.averageOrderValue, currency: r.currency,
      daysSinceLastOrder: r.daysSinceLastOrder, preferredSupplyMethod: r.preferredSupplyMethod, preferredPaymentMethod: r.preferredPaymentMethod,
    })),
  };
}
