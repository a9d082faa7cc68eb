// The organisation's time zone (GET /settings `time_zone`, an IANA name): the API's days, report
// dates, analytics buckets and a plan's wall clock are that zone's, whatever the browser's is
// (docs/analytics.md "Time zone"). Dates are shown and typed in it, so a day in the console is the
// day the API counts.
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';

export interface Zone {
  name: string;
  /** False when the settings could not be read (no `settings:read`): the browser's zone stands in. */
  known: boolean;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

let loading: Promise<Zone> | undefined;

/** Read once per page load; read again after a failure. */
export function loadOrganisationZone(): Promise<Zone> {
  loading ??= ok(api.GET('/settings')).then(
    (s) => ({ name: s.time_zone, known: true }),
    () => ((loading = undefined), { name: browserZone(), known: false }),
  );
  return loading;
}

/** After the settings changed: the next page that asks reads the zone again. */
export function forgetOrganisationZone(): void {
  loading = undefined;
}

/** The zone once known (undefined while loading). */
export function useOrganisationZone(): Zone | undefined {
  return useLoad(loadOrganisationZone, []).data;
}

/** Seconds the zone's wall clock is ahead of UTC at `epoch` (seconds). */
function offsetAt(epoch: number, zone: string): number {
  const w = wallClock(epoch, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000 - Math.floor(epoch);
}

function wallClock(epoch: number, zone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(epoch * 1000));
  return Object.fromEntries(parts.filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

/** A wall-clock time in `zone` (UTC fields of `naive`, seconds) → epoch seconds; the offset read twice for a day that changes it. */
function fromWallClock(naive: number, zone: string): number {
  return naive - offsetAt(naive - offsetAt(naive, zone), zone);
}

/** `YYYY-MM-DD` → epoch seconds of that day's midnight in `zone`. */
export function startOfDay(date: string, zone: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const [y, m, d] = date.split('-').map(Number);
  const naive = Date.UTC(y, m - 1, d) / 1000;
  return Number.isNaN(naive) ? undefined : fromWallClock(naive, zone);
}

/** The last second of that day in `zone`: the API's `to` is inclusive. */
export function endOfDay(date: string, zone: string): number | undefined {
  const [y, m, d] = date.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const start = startOfDay(next, zone);
  return start === undefined ? undefined : start - 1;
}

/** Today in `zone`, `daysAgo` earlier when given, as `YYYY-MM-DD`. */
export function dayInZone(zone: string, daysAgo = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - daysAgo)).toISOString().slice(0, 10);
}

/** Epoch ms → `YYYY-MM-DDTHH:mm` on the zone's wall clock (a datetime-local input's value). */
export function zonedInput(ms: number, zone: string): string {
  const w = wallClock(ms / 1000, zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** `YYYY-MM-DDTHH:mm` on the zone's wall clock → epoch seconds (a time skipped by a clock change moves forward). */
export function epochOfZoned(input: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(input);
  if (!m) return undefined;
  return fromWallClock(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) / 1000, zone);
}

/** Epoch seconds shown in `zone`. */
export function inZone(epoch: number, zone: string, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(undefined, { timeZone: zone, ...options }).format(new Date(epoch * 1000));
}

/** Epoch ms → a date and time on the zone's clock with the weekday (a schedule is read by weekday). */
export function scheduleTime(ms: number, zone: string, seconds = false): string {
  return inZone(ms / 1000, zone, {
    weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    ...(seconds ? { second: '2-digit' } : {}),
  });
}
