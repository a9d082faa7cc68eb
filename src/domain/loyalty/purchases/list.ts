// GET /purchases (spec 4.8): filters by contact, reference number and performed-on window.
// Without performed_on_from the answer is the last 10 purchases (spec 8): the 10 most recently
// performed that match the other filters, whatever page and size say.
import { SqlParams } from '../../../db/sql-params';
import type { OrgSql } from '../../../db/sql';

export interface PurchaseQuery {
  contactId?: string;
  reference_number?: string;
  performed_on_from?: number;
  performed_on_to?: number;
  life_cycle_state?: string;
  sort?: string;
  order: 'ASC' | 'DESC';
  page: number;
  size: number;
}

export interface PurchaseRow {
  id: string;
  number: string;
  referenceNumber: string;
  lifeCycleState: string;
  contactId: string;
  accountId: string;
  currencyCode: string;
  totalAmount: string;
  returnedAmount: string;
  performedOn: string;
  unitId: string | null;
  unitName: string | null;
  classificationName: string | null;
  createdAt: string;
  customFields: unknown;
  total: number;
}

const SORT: Record<string, string> = {
  performed_on: 'p.performed_on', created_on: 'p.created_at', number: 'p.number', total_amount: 'p.total_amount', reference_number: 'p.reference_number',
};

export const LAST_PURCHASES = 10;

export async function listPurchases(sql: OrgSql, q: PurchaseQuery): Promise<{ rows: PurchaseRow[]; total: number }> {
  const params = new SqlParams();
  const where = ['p.organisation_id = $1'];
  if (q.contactId !== undefined) where.push(`p.contact_id = ${params.add(q.contactId)}::uuid`);
  if (q.reference_number !== undefined) where.push(`p.reference_number = ${params.add(q.reference_number)}`);
  if (q.performed_on_from !== undefined) where.push(`p.performed_on >= to_timestamp(${params.add(q.performed_on_from)})`);
  if (q.performed_on_to !== undefined) where.push(`p.performed_on < to_timestamp(${params.add(q.performed_on_to + 1)})`);
  if (q.life_cycle_state !== undefined) where.push(`p.life_cycle_state = ${params.add(q.life_cycle_state)}`);
  const direction = q.order === 'ASC' ? 'ASC' : 'DESC';
  const columns = `p.id, p.number::text AS number, p.reference_number AS "referenceNumber", p.life_cycle_state AS "lifeCycleState",
    p.contact_id AS "contactId", p.account_id AS "accountId", p.currency_code AS "currencyCode", p.total_amount::text AS "totalAmount",
    p.returned_amount::text AS "returnedAmount", p.performed_on AS "performedOn", u.id AS "unitId", u.name AS "unitName",
    c.name AS "classificationName", p.created_at AS "createdAt", p.custom_fields AS "customFields"`;
  const joins = `LEFT JOIN network_units u ON u.organisation_id = p.organisation_id AND u.id = COALESCE(p.outlet_unit_id, p.merchant_unit_id)
    LEFT JOIN purchase_classifications c ON c.organisation_id = p.organisation_id AND c.id = p.classification_id`;
  const order = `${SORT[q.sort ?? 'performed_on']} ${direction}, p.id ${direction}`;
  const text =
    q.performed_on_from === undefined
      ? // The last 10 first, then the page over them in the order asked.
        `SELECT ${columns}, (count(*) OVER ())::int AS total FROM (
           SELECT * FROM purchases p WHERE ${where.join(' AND ')} ORDER BY p.performed_on DESC, p.id DESC LIMIT ${LAST_PURCHASES}
         ) p ${joins} ORDER BY ${order} ${params.page(q)}`
      : `SELECT ${columns}, (count(*) OVER ())::int AS total FROM purchases p ${joins}
         WHERE ${where.join(' AND ')} ORDER BY ${order} ${params.page(q)}`;
  const rows = await sql.rows<PurchaseRow>(text, params.values);
  return { rows, total: rows[0]?.total ?? 0 };
}
