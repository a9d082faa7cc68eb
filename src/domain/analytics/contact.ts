// GET /contacts/{id}/analytics (spec 4.1; docs/analytics.md "Contact analytics"): the contact's
// counts for the current calendar periods in the organisation's time zone, as ONE statement: the
// contact by id or code, the period bounds, and a FILTER aggregate per metric and period over the
// contact's purchases and wallet transactions (their (organisation_id, contact_id, ...) indexes).
import type { OrgSql } from '../../db/sql';
import { contactStatementParams } from '../contacts/read-statement';
import { notFound } from '../errors';
import { TIME_ZONE_SQL } from '../money/settings';

export const CONTACT_METRICS = ['visits', 'awards', 'transactions'] as const;
export type ContactMetric = (typeof CONTACT_METRICS)[number];

export const PERIODS = ['hour', 'today', 'this_week', 'this_month', 'last_month', 'this_quarter', 'this_semester', 'this_year'] as const;
export type Period = (typeof PERIODS)[number];

export type PeriodCounts = Record<Period, number>;

// Local period starts (timestamp without time zone) from the organisation's wall clock; the
// hour is an instant (absolute hours, as the organisation analytics' HOUR buckets).
const BOUNDS = `zone AS (SELECT ${TIME_ZONE_SQL} AS tz),
  local AS (SELECT tz, now() AT TIME ZONE tz AS now FROM zone),
  start AS (SELECT tz, date_trunc('day', now) AS day, date_trunc('week', now) AS week, date_trunc('month', now) AS month,
      date_trunc('quarter', now) AS quarter, date_trunc('year', now) AS year,
      date_trunc('year', now) + CASE WHEN extract(month FROM now) > 6 THEN interval '6 months' ELSE interval '0' END AS semester
    FROM local),
  b AS (SELECT date_trunc('hour', now(), tz) AS hour_from, date_trunc('hour', now(), tz) + interval '1 hour' AS hour_to,
      day AT TIME ZONE tz AS today_from, (day + interval '1 day') AT TIME ZONE tz AS today_to,
      week AT TIME ZONE tz AS this_week_from, (week + interval '7 days') AT TIME ZONE tz AS this_week_to,
      month AT TIME ZONE tz AS this_month_from, (month + interval '1 month') AT TIME ZONE tz AS this_month_to,
      (month - interval '1 month') AT TIME ZONE tz AS last_month_from, month AT TIME ZONE tz AS last_month_to,
      quarter AT TIME ZONE tz AS this_quarter_from, (quarter + interval '3 months') AT TIME ZONE tz AS this_quarter_to,
      semester AT TIME ZONE tz AS this_semester_from, (semester + interval '6 months') AT TIME ZONE tz AS this_semester_to,
      year AT TIME ZONE tz AS this_year_from, (year + interval '1 year') AT TIME ZONE tz AS this_year_to,
      -- What any period can reach: a week may start in last year, last month too.
      LEAST(week, month - interval '1 month', year) AT TIME ZONE tz AS earliest, GREATEST(week + interval '7 days', year + interval '1 year') AT TIME ZONE tz AS latest
    FROM start)`;

/** `{hour: count(*) FILTER (...), ...}` of facts whose `time` lies in each period. */
const counts = (time: string, condition: string) =>
  `json_build_object(${PERIODS.map((p) => `'${p}', count(*) FILTER (WHERE ${condition} AND ${time} >= b.${p}_from AND ${time} < b.${p}_to)`).join(', ')})`;

// The id-or-code rule of contacts/lookup.ts: a GUID-shaped value matches the id or the code, the id winning.
const CONTACT_ANALYTICS = `WITH ${BOUNDS},
  c AS (SELECT id FROM contacts WHERE organisation_id = $1 AND (id = $2::uuid OR code = $3::text) ORDER BY (id = $2::uuid) DESC NULLS LAST LIMIT 1)
SELECT c.id IS NOT NULL AS found,
  (SELECT ${counts('p.performed_on', 'p.outlet_unit_id IS NOT NULL')} FROM purchases p
    WHERE p.organisation_id = $1 AND p.contact_id = c.id AND p.life_cycle_state = 'POSTED'
      AND p.performed_on >= b.earliest AND p.performed_on < b.latest) AS visits,
  (SELECT json_build_object('awards', ${counts('t.transaction_date', "t.classification = 'AWARD'")}, 'transactions', ${counts('t.transaction_date', 'true')})
    FROM wallet_transactions t
    WHERE t.organisation_id = $1 AND t.contact_id = c.id AND t.life_cycle_state = 'POSTED' AND t.classification <> 'VOID'
      AND t.transaction_date >= b.earliest AND t.transaction_date < b.latest) AS money
FROM b LEFT JOIN c ON true`;

interface Row {
  found: boolean;
  visits: PeriodCounts;
  money: { awards: PeriodCounts; transactions: PeriodCounts };
}

/** The requested metrics' counts, in the order asked; 404 for an unknown contact. */
export async function contactAnalytics(sql: OrgSql, idOrCode: string, metrics: readonly ContactMetric[]): Promise<Array<{ name: ContactMetric; values: PeriodCounts }>> {
  const [row] = await sql.rows<Row>(CONTACT_ANALYTICS, contactStatementParams(idOrCode));
  if (!row.found) throw notFound('Contact');
  const values: Record<ContactMetric, PeriodCounts> = { visits: row.visits, awards: row.money.awards, transactions: row.money.transactions };
  return metrics.map((name) => ({ name, values: values[name] }));
}
