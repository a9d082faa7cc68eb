// What the analytics page asks GET /organisations/{id}/analytics for (docs/analytics.md), and
// how its URL (/reports/analytics?unit=&from=&to=&granularity=&children=&metrics=) becomes the
// API's query: days of the organisation's time zone, so a bucket and a chosen day agree.
import type { Get } from '../api/types';
import { endOfDay, startOfDay } from '../components/zone';

export type Answer = Get<'/organisations/{id}/analytics'>;
export type Item = Answer['content'][number];
export type MetricKey = Exclude<keyof Item, 'organisationId' | 'organisationName'>;
export type Granularity = 'HOUR' | 'DAY' | 'MONTH';

export interface MetricDef {
  key: MetricKey;
  label: string;
  description: string;
  /** Quantities with decimals; the other metrics are counts. */
  decimals?: boolean;
  /** `wallets` has no link to a unit: only for the whole organisation. */
  tenantOnly?: boolean;
}

/** In the API's order; the first three are the dashboard's defaults. */
export const METRICS: MetricDef[] = [
  { key: 'purchases', label: 'Purchases', description: 'Purchases posted (cancelled ones count nowhere), by when they were made' },
  { key: 'visits', label: 'Visits', description: 'Purchases made at a venue (an outlet tap was given)' },
  { key: 'awards', label: 'Awards', description: 'Award transactions of purchases' },
  { key: 'offers', label: 'Offer awards', description: 'Awards that came from a reward offer' },
  { key: 'transactions', label: 'Wallet transactions', description: 'Posted wallet transactions of every kind except voids' },
  { key: 'products', label: 'Products', description: 'Quantities bought (exact decimals: 1.5 kg counts 1.5)', decimals: true },
  { key: 'wallets', label: 'Wallets created', description: 'New wallets (only for the whole organisation)', tenantOnly: true },
];
export const DEFAULT_METRICS: MetricKey[] = ['purchases', 'visits', 'awards'];

export const GRANULARITIES: Array<{ value: Granularity; label: string; word: string }> = [
  { value: 'HOUR', label: 'By hour', word: 'Hour' },
  { value: 'DAY', label: 'By day', word: 'Day' },
  { value: 'MONTH', label: 'By month', word: 'Month' },
];

export interface Choice {
  unit: string;
  from: string;
  to: string;
  granularity: Granularity;
  children: boolean;
  metrics: MetricKey[];
}

/** The URL's choice, with the defaults: the whole organisation, the last 30 days of the zone, by day. */
export function choiceOf(params: URLSearchParams, tenantId: string, defaults: { from: string; to: string }): Choice {
  const granularity = GRANULARITIES.find((g) => g.value === params.get('granularity'))?.value ?? 'DAY';
  const listed = params.get('metrics');
  const metrics = listed === null ? DEFAULT_METRICS : (listed.split(',').filter((m) => METRICS.some((d) => d.key === m)) as MetricKey[]);
  return {
    unit: params.get('unit') || tenantId,
    from: params.get('from') ?? defaults.from,
    to: params.get('to') ?? defaults.to,
    granularity,
    children: params.get('children') === 'true',
    metrics,
  };
}

/**
 * The API's query. Nothing is checked here that the API checks (a window of more than 1,000
 * buckets, `from` after `to`, no metric): its 400 names the field, and the page shows it there.
 */
export function queryOf(c: Choice, zone: string) {
  const from = startOfDay(c.from, zone);
  const to = c.to ? endOfDay(c.to, zone) : undefined;
  return {
    metrics: c.metrics.join(','),
    granularity: c.granularity,
    ...(from !== undefined ? { from: String(from) } : {}),
    ...(to !== undefined ? { to: String(to) } : {}),
    ...(c.children ? { include_children: true } : {}),
  };
}
