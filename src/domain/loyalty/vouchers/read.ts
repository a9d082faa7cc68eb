// Voucher reads (spec 2.11, 4.3; docs/vouchers.md "Listing"): one statement on ctx.sql each.
// The state shown is derived: ACTIVATED past expiration_date reads EXPIRED, and the
// life_cycle_state filter follows the same rule.
import type { z } from 'zod';
import type { voucherListQuery } from '../../../api/loyalty/vouchers/schemas';
import { SqlParams } from '../../../db/sql-params';
import type { OrgSql } from '../../../db/sql';
import { contactStatementParams } from '../../contacts/read-statement';
import { notFound } from '../../errors';
import type { ListPage } from '../../lists';
import { Money } from '../../money';
import { customFieldsOf } from '../../custom-fields/values';
import type { VoucherView } from './types';
import { nowSeconds } from '../../clock';

export type VoucherListQuery = z.output<typeof voucherListQuery>;

type Amount = 'value' | 'extraAddedValue' | 'minimumValue' | 'maximumValue' | 'usedValue';

/** The statement's columns are the view's: amounts as numeric text, the type and custom fields as stored. */
type Row = Omit<VoucherView, Amount | 'voucherType' | 'customFields'> & Record<Amount, string | null> & {
  voucherTypeId: string;
  voucherTypeName: string;
  customFields: unknown;
  total?: number;
};

// $2 is the moment the state is read at.
const SELECT = `SELECT v.id, v.contact_id AS "contactId", v.number, v.classification,
  CASE WHEN v.life_cycle_state = 'ACTIVATED' AND v.expiration_date <= $2::timestamptz THEN 'EXPIRED' ELSE v.life_cycle_state END AS "lifeCycleState",
  v.category, v.value::text AS value, v.extra_added_value::text AS "extraAddedValue", v.minimum_value::text AS "minimumValue",
  v.maximum_value::text AS "maximumValue", v.currency_code AS "currencyCode", v.validity_period AS "validityPeriod",
  v.validity_uot AS "validityUot", v.expiration_date AS "expirationDate", v.voucher_type_id AS "voucherTypeId", t.name AS "voucherTypeName",
  v.purchase_id AS "purchaseId", v.used_at AS "usedAt", v.used_value::text AS "usedValue", v.used_by AS "usedBy",
  v.custom_fields AS "customFields", v.created_at AS "createdAt"`;
const FROM = `FROM vouchers v JOIN voucher_types t ON t.id = v.voucher_type_id AND t.organisation_id = v.organisation_id`;

const SORT: Record<NonNullable<VoucherListQuery['sort']>, string> = {
  created_on: 'v.created_at',
  expiration_date: 'v.expiration_date',
  number: 'v.number',
  value: 'v.value',
  used_on: 'v.used_at',
  used_value: 'v.used_value',
};

export async function listVouchers(sql: OrgSql, q: VoucherListQuery, now: Date = nowSeconds()): Promise<ListPage<VoucherView>> {
  const params = new SqlParams(now);
  const where = ['v.organisation_id = $1'];
  if (q.contact_id !== undefined) {
    // The id or the code, by the rule of the contact paths (an id wins over an equal code).
    const [id, code] = contactStatementParams(q.contact_id);
    const idParam = params.add(id);
    const codeParam = params.add(code);
    where.push(`v.contact_id = (SELECT c.id FROM contacts c WHERE c.organisation_id = $1 AND (c.id = ${idParam}::uuid OR c.code = ${codeParam}::text)
      ORDER BY (c.id = ${idParam}::uuid) DESC NULLS LAST LIMIT 1)`);
  }
  if (q.voucher_type_id !== undefined) where.push(`v.voucher_type_id = ${params.add(q.voucher_type_id)}::uuid`);
  if (q.number !== undefined) where.push(`v.number = ${params.add(q.number)}::text`);
  if (q.classification !== undefined) where.push(`upper(v.classification) = upper(${params.add(q.classification)}::text)`);
  if (q.category !== undefined) where.push(`upper(v.category) = upper(${params.add(q.category)}::text)`);
  switch (q.life_cycle_state) {
    case 'ACTIVATED':
      where.push(`v.life_cycle_state = 'ACTIVATED' AND v.expiration_date > $2::timestamptz`);
      break;
    case 'EXPIRED':
      where.push(`v.life_cycle_state = 'ACTIVATED' AND v.expiration_date <= $2::timestamptz`);
      break;
    case 'USED':
    case 'CANCELLED':
      where.push(`v.life_cycle_state = ${params.add(q.life_cycle_state)}::text`);
      break;
  }
  const direction = q.order === 'ASC' ? 'ASC' : 'DESC';
  const sort = SORT[q.sort ?? 'created_on'];
  const rows = await sql.rows<Row>(
    `${SELECT}, (count(*) OVER ())::int AS total
     ${FROM}
     WHERE ${where.join(' AND ')}
     ORDER BY ${sort} ${direction} NULLS LAST, v.id ${direction}
     ${params.page(q)}`,
    params.values,
  );
  let total = rows[0]?.total ?? 0;
  if (!rows.length && q.page > 1) {
    // A page past the end still reports how many there are.
    // $2 (the moment) is referenced even when no filter needs it: pg refuses an unused parameter.
    const [count] = await sql.rows<{ total: number }>(
      `SELECT count(*)::int AS total ${FROM} WHERE ${where.join(' AND ')} AND $2::timestamptz IS NOT NULL`,
      params.values.slice(0, -2),
    );
    total = count?.total ?? 0;
  }
  return { rows: rows.map(view), total };
}

export async function getVoucher(sql: OrgSql, id: string, now: Date = nowSeconds()): Promise<VoucherView> {
  const [row] = await sql.rows<Row>(`${SELECT} ${FROM} WHERE v.organisation_id = $1 AND v.id = $3::uuid`, [now, id]);
  if (!row) throw notFound('Voucher');
  return view(row);
}

const money = (v: string | null) => (v === null ? null : new Money(v));

function view(r: Row): VoucherView {
  return {
    id: r.id, contactId: r.contactId, number: r.number, classification: r.classification, lifeCycleState: r.lifeCycleState,
    category: r.category, value: money(r.value), extraAddedValue: money(r.extraAddedValue), minimumValue: money(r.minimumValue),
    maximumValue: money(r.maximumValue), currencyCode: r.currencyCode, validityPeriod: r.validityPeriod, validityUot: r.validityUot,
    expirationDate: r.expirationDate, voucherType: { id: r.voucherTypeId, name: r.voucherTypeName }, purchaseId: r.purchaseId,
    usedAt: r.usedAt, usedValue: money(r.usedValue), usedBy: r.usedBy, customFields: customFieldsOf(r.customFields), createdAt: r.createdAt,
  };
}
