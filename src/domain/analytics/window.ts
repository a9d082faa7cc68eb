// The sliding window of GET /organisations/{id}/analytics and its buckets (docs/analytics.md
// "Window and buckets"): epoch seconds in, bucket starts in the organisation's time zone out.
import { invalid } from '../errors';

export const GRANULARITIES = ['HOUR', 'DAY', 'MONTH'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Enough for 41 days by the hour, 2.7 years by the day; keeps an answer under ~100 KB per series. */
export const MAX_BUCKETS = 1000;

/** The window without `from`: what a dashboard of that granularity shows first. */
const DEFAULT_SPAN_SECONDS: Record<Granularity, number> = { HOUR: 24 * 3600, DAY: 30 * 86400, MONTH: 365 * 86400 };

export interface WindowQuery {
  from?: number;
  to?: number;
  granularity: Granularity;
}

export interface AnalyticsWindow {
  from: Date;
  /** Exclusive: the second `to` names is inside the window. */
  end: Date;
  granularity: Granularity;
  timeZone: string;
}

export function analyticsWindow(q: WindowQuery, timeZone: string, now = new Date()): AnalyticsWindow {
  const to = q.to ?? Math.floor(now.getTime() / 1000);
  const from = q.from ?? Math.max(0, to - DEFAULT_SPAN_SECONDS[q.granularity]);
  if (from > to) throw invalid('from', `from must not be later than to (${to})`);
  const buckets = bucketCount(from, to, q.granularity, timeZone);
  if (buckets > MAX_BUCKETS) {
    throw invalid('from', `the window holds ${buckets} buckets of one ${q.granularity.toLowerCase()}; at most ${MAX_BUCKETS}: shorten it or choose a coarser granularity`);
  }
  return { from: new Date(from * 1000), end: new Date((to + 1) * 1000), granularity: q.granularity, timeZone };
}

/** How many buckets the window touches, its partial first and last ones included. */
export function bucketCount(from: number, to: number, granularity: Granularity, timeZone: string): number {
  const a = localParts(from, timeZone);
  const b = localParts(to, timeZone);
  switch (granularity) {
    case 'HOUR':
      // Hours are absolute: a day that leaves daylight saving time has 25 of them.
      return (to - b.minute * 60 - b.second - (from - a.minute * 60 - a.second)) / 3600 + 1;
    case 'DAY':
      return (Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000 + 1;
    case 'MONTH':
      return (b.year - a.year) * 12 + b.month - a.month + 1;
  }
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `zone` at epoch second `t`. */
export function localParts(t: number, zone: string): LocalParts {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(t * 1000)).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year, month: parts.month, day: parts.day, minute: parts.minute, second: parts.second };
}
