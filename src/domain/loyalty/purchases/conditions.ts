// Which spend conditions a purchase meets, and how much of it each may pay (docs/loyalty.md
// "Spend"): a condition's organisations must include the purchase's merchant or outlet, its
// products must cover at least one line (it pays at most what the covered lines come to), and
// one of its timings must contain performed_on (UTC). An empty list does not restrict.
import type { OrgSql } from '../../../db/sql';
import { Money } from '../../money';
import { amountOf, type Line, type ProductRule } from './awards';

interface Condition {
  id: string;
  units: string[];
  products: ProductRule[];
  timings: Array<{ month: number | null; day: number | null; start_time: string; end_time: string }>;
}

const CONDITIONS = `SELECT c.id, c.timings,
  COALESCE((SELECT json_agg(u.unit_id) FROM spend_condition_units u WHERE u.organisation_id = $1 AND u.spend_condition_id = c.id), '[]'::json) AS units,
  COALESCE((SELECT json_agg(json_build_object('idType', p.id_type, 'id', COALESCE(p.product_id, p.product_type_id, p.product_family_id)))
    FROM spend_condition_products p WHERE p.organisation_id = $1 AND p.spend_condition_id = c.id), '[]'::json) AS products
FROM spend_conditions c WHERE c.organisation_id = $1 AND c.id = ANY($2::uuid[])`;

export interface PurchaseFacts {
  lines: Line[];
  merchantUnitId: string | null;
  outletUnitId: string | null;
  performedOn: Date;
}

/** Of the given conditions, those the purchase meets, each with the most it may pay. */
export async function conditionCaps(sql: OrgSql, conditionIds: string[], purchase: PurchaseFacts): Promise<Map<string, Money>> {
  const caps = new Map<string, Money>();
  if (!conditionIds.length) return caps;
  for (const c of await sql.rows<Condition>(CONDITIONS, [conditionIds])) {
    if (c.units.length && !c.units.some((u) => u === purchase.merchantUnitId || u === purchase.outletUnitId)) continue;
    if (c.timings.length && !c.timings.some((t) => within(t, purchase.performedOn))) continue;
    const cap = amountOf(purchase.lines, c.products);
    if (cap.gt(0)) caps.set(c.id, cap);
  }
  return caps;
}

function within(t: Condition['timings'][number], at: Date): boolean {
  if (t.month !== null && t.month !== at.getUTCMonth() + 1) return false;
  if (t.day !== null && t.day !== at.getUTCDay() + 1) return false;
  const clock = at.toISOString().slice(11, 16);
  return t.start_time <= clock && clock < t.end_time;
}
