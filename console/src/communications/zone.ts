// Times in the organisation's time zone (GET /settings `time_zone`, an IANA name): plans are
// scheduled in UTC by the API, and shown and entered in the organisation's zone here.
import { api } from '../api/client';
import { ok } from '../api/errors';

let loading: Promise<string> | undefined;

/** The organisation's time zone, read once per page load; UTC (the API's default) when it cannot be read. */
export function loadTimeZone(): Promise<{ zone: string; known: boolean }> {
  loading ??= ok(api.GET('/settings')).then((s) => s.time_zone);
  return loading.then(
    (zone) => ({ zone, known: true }),
    () => ((loading = undefined), { zone: 'UTC', known: false }),
  );
}

const partsFormat = (zone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });

function wallClock(ms: number, zone: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const p of partsFormat(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts;
}

/** How far the zone's wall clock is ahead of UTC at `ms`. */
function offset(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/** Epoch ms → `YYYY-MM-DDTHH:mm` on the zone's wall clock (a datetime-local input's value). */
export function zonedInput(ms: number, zone: string): string {
  const w = wallClock(ms, zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** `YYYY-MM-DDTHH:mm` on the zone's wall clock → epoch seconds (a time skipped by a clock change moves forward). */
export function epochOfZoned(input: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(input);
  if (!m) return undefined;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  const guess = wall - offset(wall, zone);
  return Math.floor((wall - offset(guess, zone)) / 1000);
}

/** Epoch ms → a readable date and time on the zone's clock, with the weekday (a schedule is read by weekday). */
export function inZone(ms: number, zone: string, seconds = false): string {
  return new Intl.DateTimeFormat(undefined, {
    timeZone: zone, weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    ...(seconds ? { second: '2-digit' } : {}),
  }).format(new Date(ms));
}
