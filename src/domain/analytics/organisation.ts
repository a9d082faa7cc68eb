// GET /organisations/{id}/analytics (spec 4.9; docs/analytics.md): series of counts per bucket for
// the tenant or a unit of its business network, optionally with each unit below it. Two
// statements: the organisations to answer (one recursive read of the network), then every
// requested series of every one of them in one aggregate over the window, in one transaction
// without JIT compilation (below).
import type { Tx } from '../../db/client';
import { txSql, type OrgSql } from '../../db/sql';
import { invalid, notFound } from '../errors';
import { TIME_ZONE_SQL } from '../money/settings';
import { analyticsWindow, type AnalyticsWindow, type Granularity, type WindowQuery } from './window';

export const ORGANISATION_METRICS = ['purchases', 'visits', 'offers', 'transactions', 'products', 'awards', 'wallets'] as const;
export type OrganisationMetric = (typeof ORGANISATION_METRICS)[number];

/** A dashboard draws each item; past this many units it should ask for them one by one. */
export const MAX_ORGANISATIONS = 100;

export interface AnalyticsQuery extends WindowQuery {
  /** Absent: all of them (wallets only where they apply). */
  metrics?: OrganisationMetric[];
  includeChildren: boolean;
}

export interface Point {
  timestamp: number;
  /** A count, or for products a sum of quantities (exact decimal text read as a number). */
  number: number;
}

export interface OrganisationSeries {
  organisationId: string;
  organisationName: string;
  series: Partial<Record<OrganisationMetric, Point[]>>;
}

interface Item {
  id: string;
  name: string;
  /** The tenant itself: every fact of the organisation, with or without a unit. */
  whole: boolean;
  metrics: OrganisationMetric[];
}

interface NetworkRow {
  organisationName: string;
  timeZone: string;
  units: Array<{ id: string; name: string; parentId: string | null }>;
}

// The unit ($2) with, when $3, everything below it; for the tenant's own id the top units and
// everything below them. Ordered so that a unit's parent comes before it. It also turns JIT
// compilation off for the rest of the transaction: the planner prices the series statement by
// its index probes (hundreds of thousands of cost units for a month of a busy organisation), and
// PostgreSQL's default jit_above_cost would then spend 100-400 ms compiling a statement that
// runs in tens of milliseconds.
const NETWORK = `WITH RECURSIVE tree(id, name, parent_id, depth) AS (
  SELECT id, name, parent_id, 1 FROM network_units
  WHERE organisation_id = $1 AND (id = $2::uuid OR ($2::uuid = $1::uuid AND $3::boolean AND parent_id IS NULL))
  UNION ALL
  SELECT u.id, u.name, u.parent_id, t.depth + 1 FROM tree t JOIN network_units u ON u.parent_id = t.id
  WHERE u.organisation_id = $1 AND $3::boolean
)
SELECT set_config('jit', 'off', true) AS jit, (SELECT name FROM organisations WHERE id = $1) AS "organisationName",
  ${TIME_ZONE_SQL} AS "timeZone",
  COALESCE((SELECT json_agg(json_build_object('id', id, 'name', name, 'parentId', parent_id) ORDER BY depth, name, id) FROM tree), '[]'::json) AS units`;

/** `tx`: a transaction of the caller's own, which the statements' settings stay within. */
export async function organisationAnalytics(tx: Tx, organisationId: string, id: string, q: AnalyticsQuery): Promise<OrganisationSeries[]> {
  const sql = txSql(tx, organisationId);
  const tenant = id === organisationId;
  const [network] = await sql.rows<NetworkRow>(NETWORK, [id, q.includeChildren]);
  if (!tenant && network.units.length === 0) throw notFound('Organisation');
  if (!tenant && q.metrics?.includes('wallets')) {
    throw invalid('metrics', "metrics: wallets belong to no unit; ask for them with the organisation's own id");
  }
  const window = analyticsWindow(q, network.timeZone);
  // Wallets have no link to a unit (docs/analytics.md "Metrics"): only the tenant's item has them.
  const unitMetrics = (q.metrics ?? ORGANISATION_METRICS).filter((m) => m !== 'wallets');
  const units: Item[] = network.units.map((u) => ({ id: u.id, name: u.name, whole: false, metrics: unitMetrics }));
  const items = tenant ? [{ id, name: network.organisationName, whole: true, metrics: q.metrics ?? [...ORGANISATION_METRICS] }, ...units] : units;
  if (items.length > MAX_ORGANISATIONS) {
    throw invalid('include_children', `include_children: ${items.length} organisations; at most ${MAX_ORGANISATIONS} in one request`);
  }
  return seriesOf(sql, window, items, members(network.units));
}

/**
 * Which units count for which unit item: the unit itself and every unit below it that the
 * request includes (a purchase at a venue counts for the venue, its merchant and their
 * subsidiary). Without include_children the network read holds the one unit.
 */
function members(units: NetworkRow['units']): Array<[string, string]> {
  const parent = new Map(units.map((u) => [u.id, u.parentId]));
  const pairs: Array<[string, string]> = [];
  for (const u of units) {
    for (let at: string | null = u.id; at !== null && parent.has(at); at = parent.get(at) ?? null) pairs.push([at, u.id]);
  }
  return pairs;
}

interface SeriesRow {
  item: string;
  timestamps: number[];
  [metric: string]: unknown;
}

async function seriesOf(sql: OrgSql, w: AnalyticsWindow, items: Item[], pairs: Array<[string, string]>): Promise<OrganisationSeries[]> {
  const metrics = new Set(items.flatMap((i) => i.metrics));
  const text = statement(w.granularity, metrics, items.some((i) => i.whole), items.some((i) => !i.whole));
  const rows = await sql.rows<SeriesRow>(text, [
    w.from, w.end, w.timeZone, items.map((i) => i.id), items.map((i) => i.whole), pairs.map((p) => p[0]), pairs.map((p) => p[1]),
  ]);
  const byItem = new Map(rows.map((r) => [r.item, r]));
  return items.map((item) => {
    const row = byItem.get(item.id)!;
    const series: OrganisationSeries['series'] = {};
    for (const m of item.metrics) series[m] = row.timestamps.map((timestamp, k) => ({ timestamp, number: Number((row[m] as Array<number | string>)[k]) }));
    return { organisationId: item.id, organisationName: item.name, series };
  });
}

// ---------------------------------------------------------------- the aggregate statement
// $2 window start, $3 window end (exclusive), $4 time zone, $5/$6 items (id, whole), $7/$8 the
// member pairs (item, unit). `bk` holds each bucket the window touches as the instants [lo, hi)
// it covers within the window: hours are absolute (a day leaving daylight saving time has two
// 02:00 hours), days and months are local calendar dates converted back to instants. Each
// metric is a LATERAL aggregate per item and bucket: one index range scan per bucket, counted
// as it is read, with no sort or hash of the window's rows (docs/analytics.md "Speed").

/** The buckets the window touches, as `s.b`, and the instants bucket `s.b` starts and ends at. */
interface Buckets {
  series: string;
  start: string;
  end: string;
}

const LAST = `($3::timestamptz - interval '1 millisecond')`;

const localBuckets = (unit: 'day' | 'month'): Buckets => ({
  series: `generate_series(date_trunc('${unit}', $2::timestamptz AT TIME ZONE $4::text), date_trunc('${unit}', ${LAST} AT TIME ZONE $4::text), interval '1 ${unit}')`,
  start: `s.b AT TIME ZONE $4::text`,
  end: `(s.b + interval '1 ${unit}') AT TIME ZONE $4::text`,
});

const BUCKETS: Record<Granularity, Buckets> = {
  HOUR: {
    series: `generate_series(date_trunc('hour', $2::timestamptz, $4::text), date_trunc('hour', ${LAST}, $4::text), interval '1 hour')`,
    start: 's.b',
    end: `s.b + interval '1 hour'`,
  },
  DAY: localBuckets('day'),
  MONTH: localBuckets('month'),
};

const bucketsOf = (b: Buckets) => `SELECT extract(epoch FROM ${b.start})::bigint AS at, GREATEST(${b.start}, $2::timestamptz) AS lo, LEAST(${b.end}, $3::timestamptz) AS hi
    FROM ${b.series} AS s(b)`;

/** Purchase `p` is at one of item `i`'s units. */
const AT_ITEM_UNIT = '(p.merchant_unit_id = ANY (i.units) OR p.outlet_unit_id = ANY (i.units))';

/** Whether a fact counts for item `i`: the tenant takes every fact, a unit those `atUnit` says. */
function forItem(atUnit: string, whole: boolean, units: boolean): string {
  if (!units) return 'true';
  return whole ? `(i.whole OR ${atUnit})` : atUnit;
}

const texts = new Map<string, string>();

function statement(g: Granularity, metrics: Set<OrganisationMetric>, whole: boolean, units: boolean): string {
  const cacheKey = [g, [...metrics].sort().join(), whole, units].join('|');
  const cached = texts.get(cacheKey);
  if (cached) return cached;
  const laterals: string[] = [];
  const columns: string[] = [];
  const add = (alias: string, from: string, outputs: Array<[OrganisationMetric, string]>) => {
    const wanted = outputs.filter(([m]) => metrics.has(m));
    if (!wanted.length) return;
    laterals.push(`CROSS JOIN LATERAL (SELECT ${wanted.map(([m, agg]) => `${agg} AS ${m}`).join(', ')}
    ${from}) ${alias}`);
    for (const [m] of wanted) columns.push(`json_agg(${alias}.${m} ORDER BY bk.at) AS ${m}`);
  };
  const postedPurchases = `FROM purchases p WHERE p.organisation_id = $1 AND p.performed_on >= bk.lo AND p.performed_on < bk.hi
      AND p.life_cycle_state = 'POSTED' AND ${forItem(AT_ITEM_UNIT, whole, units)}`;
  // product_quantity (its lines' sum, written with them) keeps products on the purchase index.
  add('pf', postedPurchases, [
    ['purchases', 'count(*)'],
    ['visits', 'count(*) FILTER (WHERE p.outlet_unit_id IS NOT NULL)'],
    ['products', 'COALESCE(sum(p.product_quantity), 0)'],
  ]);
  // A transaction counts for a unit through its purchase; a voided one and its void cancel out.
  // Most purchase transactions (spend, awards) are dated as their purchase, so their purchase is
  // among the bucket's: two hashed look-ups answer them. Only the others (a return of an older
  // purchase) look their purchase up one by one.
  const inBucket = `SELECT p.id FROM purchases p WHERE p.organisation_id = $1 AND p.performed_on >= bk.lo AND p.performed_on < bk.hi`;
  const ofItemUnit = `(t.purchase_id IN (${inBucket} AND ${AT_ITEM_UNIT})
      OR (t.purchase_id NOT IN (${inBucket}) AND EXISTS (SELECT 1 FROM purchases p WHERE p.organisation_id = $1 AND p.id = t.purchase_id AND ${AT_ITEM_UNIT})))`;
  add('tf', `FROM wallet_transactions t WHERE t.organisation_id = $1 AND t.transaction_date >= bk.lo AND t.transaction_date < bk.hi
      AND t.life_cycle_state = 'POSTED' AND t.classification <> 'VOID' AND ${forItem(ofItemUnit, whole, units)}`, [
    ['transactions', 'count(*)'],
    ['awards', "count(*) FILTER (WHERE t.classification = 'AWARD')"],
    ['offers', "count(*) FILTER (WHERE t.classification = 'AWARD' AND t.reward_offer_id IS NOT NULL)"],
  ]);
  if (whole) add('wf', 'FROM wallets w WHERE i.whole AND w.organisation_id = $1 AND w.created_at >= bk.lo AND w.created_at < bk.hi', [['wallets', 'count(*)']]);
  const text = `WITH member(item, unit) AS (SELECT * FROM unnest($7::uuid[], $8::uuid[])),
  item AS (SELECT i.id, i.whole, ARRAY(SELECT m.unit FROM member m WHERE m.item = i.id) AS units FROM unnest($5::uuid[], $6::boolean[]) AS i(id, whole)),
  bk AS (${bucketsOf(BUCKETS[g])})
SELECT i.id AS item, json_agg(bk.at ORDER BY bk.at) AS timestamps, ${columns.join(', ')}
FROM item i CROSS JOIN bk
${laterals.join('\n')}
GROUP BY i.id`;
  texts.set(cacheKey, text);
  return text;
}
