// GET /contacts/{id}/activity_feed (spec 4.1; docs/loyalty.md "Activity feed"): what happened to
// the contact's money and rewards, newest first, from the records themselves: purchases, every
// wallet transaction (awards, spends, top-ups, transfers, voids, journals, returns, expiries)
// and voucher uses. One statement: the three sources as one list, filtered, counted and paged.
import type { OrgSql } from '../../db/sql';
import { pageAt, pageValues } from '../../db/sql-params';
import { invalid } from '../errors';

export const ACTIVITY_TYPES = ['PURCHASE', 'AWARD', 'SPEND', 'TOPUP', 'TRANSFER', 'VOID', 'CREDIT', 'DEBIT', 'RETURN', 'EXPIRY', 'VOUCHER_USE'] as const;

export interface FeedQuery {
  activity_type?: string;
  created_date?: string | number;
  order: 'ASC' | 'DESC';
  page: number;
  size: number;
}

export interface Book {
  id: string;
  number: string;
  type: 'WALLET' | 'ACCOUNT';
}

export interface FeedRow {
  id: string;
  number: string | null;
  referenceNumber: string | null;
  code: string | null;
  state: string;
  createdAt: string;
  activityType: string;
  direction: 'INCOMING' | 'OUTGOING';
  notes: string | null;
  type: string | null;
  totalAmount: string | null;
  currency: string | null;
  rewardOffer: string | null;
  merchantName: string | null;
  topupEntity: Book | null;
  origin: Book | null;
  destination: Book | null;
  total: number;
}

const book = (w: string, a: string) =>
  `CASE WHEN ${w}.id IS NOT NULL THEN json_build_object('id', ${w}.id, 'number', ${w}.code, 'type', 'WALLET')
        ELSE json_build_object('id', ${a}.id, 'number', ${a}.number, 'type', 'ACCOUNT') END`;

const FEED = `WITH feed AS (
  SELECT p.id, p.number::text AS number, p.reference_number AS "referenceNumber", NULL::text AS code, p.life_cycle_state AS state,
    p.created_at AS "createdAt", 'PURCHASE' AS "activityType", 'OUTGOING' AS direction, NULL::text AS notes, pc.name AS type,
    p.total_amount::text AS "totalAmount", p.currency_code AS currency, NULL::text AS "rewardOffer", mu.name AS "merchantName",
    NULL::json AS "topupEntity", NULL::json AS origin, NULL::json AS destination
  FROM purchases p
  LEFT JOIN purchase_classifications pc ON pc.organisation_id = p.organisation_id AND pc.id = p.classification_id
  LEFT JOIN network_units mu ON mu.organisation_id = p.organisation_id AND mu.id = p.merchant_unit_id
  WHERE p.organisation_id = $1 AND p.contact_id = $2::uuid
UNION ALL
  SELECT t.id, t.number::text, p.reference_number, NULL, t.life_cycle_state, t.created_at, t.classification,
    CASE WHEN s.moved < 0 THEN 'OUTGOING' ELSE 'INCOMING' END, t.description, NULL,
    t.amount::text, COALESCE(w.currency_code, a.currency_code), o.name, mu.name,
    CASE WHEN t.classification = 'TOPUP' THEN ${book('w', 'a')} END,
    CASE WHEN t.classification = 'TRANSFER' THEN CASE WHEN s.moved < 0 THEN ${book('w', 'a')} ELSE ${book('cw', 'ca')} END END,
    CASE WHEN t.classification = 'TRANSFER' THEN CASE WHEN s.moved < 0 THEN ${book('cw', 'ca')} ELSE ${book('w', 'a')} END END
  FROM wallet_transactions t
  JOIN accounts a ON a.organisation_id = t.organisation_id AND a.id = t.account_id
  LEFT JOIN wallets w ON w.organisation_id = t.organisation_id AND w.id = t.wallet_id
  LEFT JOIN purchases p ON p.organisation_id = t.organisation_id AND p.id = t.purchase_id
  LEFT JOIN network_units mu ON mu.organisation_id = p.organisation_id AND mu.id = p.merchant_unit_id
  LEFT JOIN reward_offers o ON o.organisation_id = t.organisation_id AND o.id = t.reward_offer_id
  LEFT JOIN wallet_transactions c ON c.organisation_id = t.organisation_id AND c.id = t.counterpart_id
  LEFT JOIN accounts ca ON ca.organisation_id = c.organisation_id AND ca.id = c.account_id
  LEFT JOIN wallets cw ON cw.organisation_id = c.organisation_id AND cw.id = c.wallet_id
  CROSS JOIN LATERAL (SELECT COALESCE(SUM(e.amount), 0) AS moved FROM ledger_entries e WHERE e.organisation_id = t.organisation_id AND e.transaction_id = t.id) s
  WHERE t.organisation_id = $1 AND t.contact_id = $2::uuid
UNION ALL
  SELECT v.id, v.number, NULL, v.number, v.life_cycle_state, v.used_at, 'VOUCHER_USE', 'OUTGOING', NULL, v.classification,
    v.used_value::text, v.currency_code, NULL, NULL, NULL, NULL, NULL
  FROM vouchers v WHERE v.organisation_id = $1 AND v.contact_id = $2::uuid AND v.used_at IS NOT NULL
)
SELECT *, (count(*) OVER ())::int AS total FROM feed
WHERE ($3::text[] IS NULL OR "activityType" = ANY($3::text[])) AND ($4::timestamptz IS NULL OR ("createdAt" >= $4 AND "createdAt" < $4 + interval '1 day'))
ORDER BY "createdAt" %DIR%, id %DIR%
${pageAt(5)}`;

export async function activityFeed(sql: OrgSql, contactId: string, q: FeedQuery): Promise<{ rows: FeedRow[]; total: number }> {
  const types = q.activity_type === undefined ? null : q.activity_type.split(',').map((t) => t.trim().toUpperCase());
  const unknown = types?.find((t) => !(ACTIVITY_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined) throw invalid('activity_type', `Unknown activity type ${unknown}; known: ${ACTIVITY_TYPES.join(', ')}`);
  const direction = q.order === 'ASC' ? 'ASC' : 'DESC';
  const rows = await sql.rows<FeedRow>(FEED.replaceAll('%DIR%', direction), [contactId, types, dayOf(q.created_date), ...pageValues(q)]);
  return { rows, total: rows[0]?.total ?? 0 };
}

/** The start (UTC) of the day a `created_date` names: YYYY-MM-DD, or epoch seconds of any moment in it. */
function dayOf(value: string | number | undefined): Date | null {
  if (value === undefined) return null;
  const at = typeof value === 'number' ? new Date(value * 1000) : new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) throw invalid('created_date', 'Not a date');
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}
