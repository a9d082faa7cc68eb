// GET /contact_rewards_analysis (spec 4.1; docs/analysis.md): the contacts whose primary account
// is signed up to rewards, with the tier reached now, the first wallet and the purchases, awards
// and spends of that account. One statement per page (aggregates by GROUP BY ... FILTER over the
// (organisation_id, contact_id, ...) indexes of purchases and wallet_transactions), the total
// riding along; plus the name format and any filter reference.
import type { OrgSql } from '../../db/sql';
import type { ListPage } from '../lists';
import { getNameDisplayFormat } from '../reference';
import { SqlParams } from '../../db/sql-params';
import { daysSince, orderBy, resolveRef, ZONE, type RefFilter } from './filters';
import { nameSortKey } from '../contacts/search';
import { contactName } from '../contacts/read';

export const REWARDS_SORT_FIELDS = [
  'name', 'code', 'loyalty_code', 'sign_up_date', 'tier', 'category', 'wallet.balance',
  'purchases.number', 'purchases.amount', 'purchases.days_since_last_purchase',
  'awards.number', 'awards.amount', 'awards.days_since_last_award',
  'spends.number', 'spends.amount', 'spends.days_since_last_spend',
] as const;

export interface RewardsAnalysisQuery {
  tier: RefFilter;
  category: RefFilter;
  sort?: (typeof REWARDS_SORT_FIELDS)[number];
  order: 'ASC' | 'DESC';
  page: number;
  size: number;
}

/** Count, amount (decimal text) and calendar days since the latest of one kind of activity. */
export interface Activity {
  number: number;
  amount: string;
  daysSince: number | null;
}

export interface RewardsAnalysisRow {
  id: string;
  name: string;
  code: string | null;
  loyaltyCode: string | null;
  /** Epoch seconds. */
  signUpDate: number | null;
  tier: { id: string; name: string } | null;
  category: { id: string; name: string } | null;
  wallet: { id: string; code: string; balance: string; currency: string } | null;
  /** The primary account's currency: purchases, awards and spends are all in it. */
  currency: string;
  purchases: Activity;
  awards: Activity;
  spends: Activity;
}

type NameColumns = { contactType: string; companyName: string | null; title: string | null; firstName: string | null; middleName: string | null; lastName: string | null };
type Row = NameColumns & Omit<RewardsAnalysisRow, 'name' | 'purchases' | 'awards' | 'spends'> & {
  purchaseNumber: number; purchaseAmount: string; purchaseDays: number | null;
  awardNumber: number; awardAmount: string; awardDays: number | null;
  spendNumber: number; spendAmount: string; spendDays: number | null;
  total: number;
};

const activity = (kind: 'AWARD' | 'SPEND') =>
  `count(*) FILTER (WHERE t.classification = '${kind}')::int AS ${kind.toLowerCase()}_number,
   COALESCE(SUM(t.amount) FILTER (WHERE t.classification = '${kind}'), 0) AS ${kind.toLowerCase()}_amount,
   max(t.transaction_date) FILTER (WHERE t.classification = '${kind}') AS ${kind.toLowerCase()}_last`;

/**
 * The listed contacts as the CTEs `members` and `tiered`: a primary account signed up to rewards
 * (its own signed_up_on, or a scheme joined and not left), in the category and tier asked for.
 */
function listed(params: SqlParams, categoryId: string | undefined, tierId: string | undefined): string {
  const joined = 'SELECT s.signed_up_on FROM account_reward_schemes s WHERE s.organisation_id = $1 AND s.account_id = a.id AND s.ended_on IS NULL';
  return `members AS (
    SELECT c.id, c.code, c.contact_type, c.company_name, c.title, c.first_name, c.middle_name, c.last_name, c.loyalty_identifier, c.category_id,
      a.id AS account_id, a.currency_code,
      COALESCE(r.signed_up_on, (SELECT min(x.signed_up_on) FROM (${joined}) x)) AS signed_up_on,
      -- The tier reached now (src/domain/loyalty/tiers.ts): period units count only in their own year (UTC).
      CASE WHEN r.period_year = extract(year FROM now() AT TIME ZONE 'UTC') THEN r.period_value_units ELSE 0 END AS period_units,
      COALESCE(r.lifetime_value_units, 0) AS lifetime_units
    FROM contacts c
    JOIN accounts a ON a.organisation_id = c.organisation_id AND a.contact_id = c.id AND a.is_primary
    LEFT JOIN account_rewards r ON r.organisation_id = a.organisation_id AND r.account_id = a.id
    WHERE c.organisation_id = $1 AND (r.signed_up_on IS NOT NULL OR EXISTS (${joined}))
      ${categoryId === undefined ? '' : `AND c.category_id = ${params.add(categoryId)}::uuid`}
  ), tiered AS (
    SELECT m.*, t.id AS tier_id, t.name AS tier_name, t.position AS tier_position
    FROM members m LEFT JOIN LATERAL (
      SELECT t.id, t.name, t.position FROM reward_tiers t
      WHERE t.organisation_id = $1 AND (m.period_units >= t.period_value_units OR m.lifetime_units >= t.lifetime_value_units)
      ORDER BY t.position DESC, t.id DESC LIMIT 1) t ON true
    ${tierId === undefined ? '' : `WHERE t.id = ${params.add(tierId)}::uuid`}
  )`;
}

export async function contactRewardsAnalysis(sql: OrgSql, organisationId: string, q: RewardsAnalysisQuery): Promise<ListPage<RewardsAnalysisRow>> {
  const tierId = await resolveRef(sql, 'tier', q.tier);
  const categoryId = await resolveRef(sql, 'category', q.category);
  const format = await getNameDisplayFormat(sql, organisationId);
  const params = new SqlParams();
  const sortKeys: Record<(typeof REWARDS_SORT_FIELDS)[number], string> = {
    name: nameSortKey(format, 'm'),
    code: 'lower(m.code)',
    loyalty_code: 'lower(m.loyalty_identifier)',
    sign_up_date: 'm.signed_up_on',
    tier: 'm.tier_position',
    category: 'lower(cat.name)',
    'wallet.balance': 'w.balance',
    'purchases.number': 'COALESCE(b.number, 0)',
    'purchases.amount': 'COALESCE(b.amount, 0)',
    'purchases.days_since_last_purchase': daysSince('b.last'),
    'awards.number': 'COALESCE(v.award_number, 0)',
    'awards.amount': 'COALESCE(v.award_amount, 0)',
    'awards.days_since_last_award': daysSince('v.award_last'),
    'spends.number': 'COALESCE(v.spend_number, 0)',
    'spends.amount': 'COALESCE(v.spend_amount, 0)',
    'spends.days_since_last_spend': daysSince('v.spend_last'),
  };
  const text = `WITH ${listed(params, categoryId, tierId)}, bought AS (
    SELECT p.contact_id, count(*)::int AS number, SUM(p.total_amount - p.returned_amount) AS amount, max(p.performed_on) AS last
    FROM tiered m JOIN purchases p ON p.organisation_id = $1 AND p.contact_id = m.id AND p.account_id = m.account_id
    WHERE p.life_cycle_state = 'POSTED'
    GROUP BY p.contact_id
  ), moved AS (
    SELECT t.contact_id, ${activity('AWARD')}, ${activity('SPEND')}
    FROM tiered m JOIN wallet_transactions t ON t.organisation_id = $1 AND t.contact_id = m.id AND t.account_id = m.account_id
    WHERE t.classification IN ('AWARD', 'SPEND') AND t.life_cycle_state = 'POSTED'
    GROUP BY t.contact_id
  )
  SELECT m.id, m.code, m.contact_type AS "contactType", m.company_name AS "companyName", m.title, m.first_name AS "firstName",
    m.middle_name AS "middleName", m.last_name AS "lastName", m.loyalty_identifier AS "loyaltyCode",
    floor(extract(epoch FROM m.signed_up_on))::float8 AS "signUpDate",
    CASE WHEN m.tier_id IS NULL THEN NULL ELSE json_build_object('id', m.tier_id, 'name', m.tier_name) END AS tier,
    CASE WHEN cat.id IS NULL THEN NULL ELSE json_build_object('id', cat.id, 'name', cat.name) END AS category,
    CASE WHEN w.id IS NULL THEN NULL ELSE json_build_object('id', w.id, 'code', w.code, 'balance', w.balance::text, 'currency', w.currency_code) END AS wallet,
    m.currency_code AS currency,
    COALESCE(b.number, 0) AS "purchaseNumber", COALESCE(b.amount, 0)::text AS "purchaseAmount", ${daysSince('b.last')} AS "purchaseDays",
    COALESCE(v.award_number, 0) AS "awardNumber", COALESCE(v.award_amount, 0)::text AS "awardAmount", ${daysSince('v.award_last')} AS "awardDays",
    COALESCE(v.spend_number, 0) AS "spendNumber", COALESCE(v.spend_amount, 0)::text AS "spendAmount", ${daysSince('v.spend_last')} AS "spendDays",
    (count(*) OVER ())::int AS total
  FROM tiered m CROSS JOIN ${ZONE}
  LEFT JOIN bought b ON b.contact_id = m.id
  LEFT JOIN moved v ON v.contact_id = m.id
  LEFT JOIN contact_categories cat ON cat.organisation_id = $1 AND cat.id = m.category_id
  LEFT JOIN LATERAL (SELECT w.id, w.code, w.balance, w.currency_code FROM wallets w
    WHERE w.organisation_id = $1 AND w.account_id = m.account_id AND w.life_cycle_state <> 'CANCELLED'
    ORDER BY w.created_at, w.id LIMIT 1) w ON true
  ORDER BY ${orderBy(sortKeys[q.sort ?? 'sign_up_date'], q.order, 'm.id')}
  ${params.page(q)}`;
  const rows = await sql.rows<Row>(text, params.values);
  // The total rides along with the page; only a page past the end needs a count.
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && q.page > 1) {
    const count = new SqlParams();
    [{ total }] = await sql.rows<{ total: number }>(`WITH ${listed(count, categoryId, tierId)} SELECT count(*)::int AS total FROM tiered`, count.values);
  }
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id, name: contactName(r, format), code: r.code, loyaltyCode: r.loyaltyCode, signUpDate: r.signUpDate,
      tier: r.tier, category: r.category, wallet: r.wallet, currency: r.currency,
      purchases: { number: r.purchaseNumber, amount: r.purchaseAmount, daysSince: r.purchaseDays },
      awards: { number: r.awardNumber, amount: r.awardAmount, daysSince: r.awardDays },
      spends: { number: r.spendNumber, amount: r.spendAmount, daysSince: r.spendDays },
    })),
  };
}
