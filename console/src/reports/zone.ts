// The organisation's time zone (GET /settings `time_zone`): the API's days, report dates and
// analytics buckets are that zone's, whatever the browser's is (docs/analytics.md "Time zone").
// Dates are shown and typed in it, so a day in the console is the day the API counts.
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';

export interface Zone {
  name: string;
  /** False when the settings could not be read (no `settings:read`): the browser's zone stands in. */
  known: boolean;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The zone once known (undefined while loading). */
export function useOrganisationZone(): Zone | undefined {
  const loaded = useLoad(
    () => ok(api.GET('/settings')).then((s) => ({ name: s.time_zone, known: true }), () => ({ name: browserZone(), known: false })),
    [],
  );
  return loaded.data;
}

/** Seconds the zone is ahead of UTC at `epoch`. */
function offsetAt(epoch: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(epoch * 1000));
  const p = Object.fromEntries(parts.map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000 - epoch;
}

/** `YYYY-MM-DD` → epoch seconds of that day's midnight in `zone` (the offset read twice: a day that changes it). */
export function startOfDay(date: string, zone: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const [y, m, d] = date.split('-').map(Number);
  const naive = Date.UTC(y, m - 1, d) / 1000;
  if (Number.isNaN(naive)) return undefined;
  return naive - offsetAt(naive - offsetAt(naive, zone), zone);
}

/** The last second of that day in `zone`: the API's `to` is inclusive. */
export function endOfDay(date: string, zone: string): number | undefined {
  const [y, m, d] = date.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const start = startOfDay(next, zone);
  return start === undefined ? undefined : start - 1;
}

/** Today in `zone`, `days` earlier when given, as `YYYY-MM-DD`. */
export function dayInZone(zone: string, daysAgo = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - daysAgo)).toISOString().slice(0, 10);
}

/** Epoch seconds shown in `zone`. */
export function inZone(epoch: number, zone: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(undefined, { timeZone: zone, ...options }).format(new Date(epoch * 1000));
}
