/**
 * When a canonical spec (spec.ts) fires: each structured calendar searched field by field in the
 * spec's time zone (IANA names, through Node's Intl data), intervals counted from the epoch plus
 * their phase, exclusions skipped, start and end times kept, one-second resolution, up to the year
 * 2100 (Temporal's calendar.go and spec.go).
 */
import { api, durMs, tsMs } from '../proto';

type Spec = api.schedule.v1.IScheduleSpec;
type Calendar = api.schedule.v1.IStructuredCalendarSpec;
type Range = api.schedule.v1.IRange;

/** A spec Temporal would refuse; the handler answers `Invalid schedule spec: <message>`. */
export class SpecError extends Error {}

export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;
export type Field = 'second' | 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek' | 'year';
export const FIELD_NAMES: Field[] = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'];

interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  m: number;
  s: number;
}

const zones = new Map<string, Intl.DateTimeFormat | null>();

/** The zone's formatter (null for UTC); an unknown name is refused, as Go's LoadLocation does. */
export function zone(name: string): Intl.DateTimeFormat | null {
  const key = name === 'UTC' ? '' : name;
  if (zones.has(key)) return zones.get(key)!;
  let f: Intl.DateTimeFormat | null = null;
  if (key) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: key,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new SpecError(`unknown time zone ${name}`);
    }
  }
  zones.set(key, f);
  return f;
}

function wallOf(sec: number, tz: Intl.DateTimeFormat | null): Wall {
  const date = new Date(sec * 1000);
  if (!tz) return { y: date.getUTCFullYear(), mo: date.getUTCMonth() + 1, d: date.getUTCDate(), h: date.getUTCHours(), m: date.getUTCMinutes(), s: date.getUTCSeconds() };
  const p: Record<string, number> = {};
  for (const part of tz.formatToParts(date)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year, mo: p.month, d: p.day, h: p.hour, m: p.minute, s: p.second };
}

const asUtc = (w: Wall): number => Date.UTC(w.y, w.mo - 1, w.d, w.h, w.m, w.s) / 1000;

/**
 * The first instant after `after` showing this wall-clock time in the zone, or undefined when the
 * zone skips it (a DST gap). In a repeated hour the first showing after `after` is taken.
 */
function instantOf(w: Wall, tz: Intl.DateTimeFormat | null, after: number): number | undefined {
  const guess = asUtc(w);
  if (!tz) return guess > after ? guess : undefined;
  const offsets = new Set([-86400, 0, 86400].map((delta) => asUtc(wallOf(guess + delta, tz)) - (guess + delta)));
  const found = [...offsets].map((o) => guess - o).filter((t) => asUtc(wallOf(t, tz)) === guess && t > after);
  return found.length ? Math.min(...found) : undefined;
}

const daysIn = (y: number, mo: number): number => new Date(Date.UTC(y, mo, 0)).getUTCDate();
const weekday = (y: number, mo: number, d: number): number => new Date(Date.UTC(y, mo - 1, d)).getUTCDay();

class CompiledCalendar {
  private sets: Record<Field, Set<number> | undefined>;

  constructor(
    c: Calendar,
    private readonly tz: Intl.DateTimeFormat | null,
  ) {
    const set = (ranges: Range[] | null | undefined): Set<number> => {
      const s = new Set<number>();
      for (const r of ranges ?? []) {
        const start = r.start ?? 0;
        for (let v = start; v <= Math.max(r.end ?? 0, start); v += r.step || 1) s.add(v);
      }
      return s;
    };
    this.sets = {} as Record<Field, Set<number> | undefined>;
    for (const field of FIELD_NAMES) this.sets[field] = set(c[field]);
    if (!c.year?.length) this.sets.year = undefined; // every year
  }

  private has(field: Field, v: number): boolean {
    const s = this.sets[field];
    return !s || s.has(v);
  }

  matches(sec: number): boolean {
    const w = wallOf(sec, this.tz);
    return (
      this.has('year', w.y) && this.has('month', w.mo) && this.has('dayOfMonth', w.d) && this.has('dayOfWeek', weekday(w.y, w.mo, w.d)) &&
      this.has('hour', w.h) && this.has('minute', w.m) && this.has('second', w.s)
    );
  }

  /** The first matching second after `after` (epoch seconds), searching field by field. */
  next(after: number): number | undefined {
    let { y, mo, d, h, m, s } = wallOf(after, this.tz);
    s++;
    for (;;) {
      if (s >= 60) [m, s] = [m + 1, 0];
      if (m >= 60) [h, m] = [h + 1, 0];
      if (h >= 24) [d, h] = [d + 1, 0];
      if (d > daysIn(y, mo)) [mo, d] = [mo + 1, 1];
      if (mo > 12) [y, mo] = [y + 1, 1];
      if (y > MAX_YEAR) return undefined;
      if (!this.has('year', y)) {
        [y, mo, d, h, m, s] = [y + 1, 1, 1, 0, 0, 0];
        continue;
      }
      if (!this.has('month', mo)) {
        [mo, d, h, m, s] = [mo + 1, 1, 0, 0, 0];
        continue;
      }
      if (!this.has('dayOfMonth', d) || !this.has('dayOfWeek', weekday(y, mo, d))) {
        [d, h, m, s] = [d + 1, 0, 0, 0];
        continue;
      }
      if (!this.has('hour', h)) {
        [h, m, s] = [h + 1, 0, 0];
        continue;
      }
      if (!this.has('minute', m)) {
        [m, s] = [m + 1, 0];
        continue;
      }
      if (!this.has('second', s)) {
        s++;
        continue;
      }
      const t = instantOf({ y, mo, d, h, m, s }, this.tz, after);
      if (t !== undefined) return t;
      [h, m, s] = [h + 1, 0, 0]; // skipped by a DST change: try the next hour
    }
  }
}

/** A canonical spec, ready to answer "when next?". */
export class CompiledSpec {
  private readonly calendars: CompiledCalendar[];
  private readonly excludes: CompiledCalendar[];
  private readonly intervals: { every: number; phase: number }[];
  private readonly startMs?: number;
  private readonly endMs?: number;

  constructor(spec: Spec) {
    const tz = zone(spec.timezoneName ?? '');
    this.calendars = (spec.structuredCalendar ?? []).map((c) => new CompiledCalendar(c, tz));
    this.excludes = (spec.excludeStructuredCalendar ?? []).map((c) => new CompiledCalendar(c, tz));
    this.intervals = (spec.interval ?? []).map((iv) => ({
      every: Math.max(Math.floor((durMs(iv.interval) ?? 0) / 1000), 1),
      phase: Math.floor((durMs(iv.phase) ?? 0) / 1000),
    }));
    this.startMs = tsMs(spec.startTime);
    this.endMs = tsMs(spec.endTime);
  }

  /** The first action time strictly after `afterMs` (whole seconds, in ms), or undefined: none left. */
  next(afterMs: number): number | undefined {
    let after = Math.floor(afterMs / 1000);
    if (this.startMs !== undefined) after = Math.max(after, Math.floor(this.startMs / 1000) - 1);
    // An exclusion that covers every candidate must not spin forever; a minute interval excluded
    // for a year is about half a million candidates.
    for (let i = 0; i < 1_000_000; i++) {
      const t = this.raw(after);
      if (t === undefined || (this.endMs !== undefined && t * 1000 > this.endMs) || new Date(t * 1000).getUTCFullYear() > MAX_YEAR) return undefined;
      if (!this.excludes.some((x) => x.matches(t))) return t * 1000;
      after = t;
    }
    return undefined;
  }

  private raw(after: number): number | undefined {
    let best: number | undefined;
    for (const c of this.calendars) {
      const t = c.next(after);
      if (t !== undefined && (best === undefined || t < best)) best = t;
    }
    for (const { every, phase } of this.intervals) {
      const t = (Math.floor((after - phase) / every) + 1) * every + phase;
      if (best === undefined || t < best) best = t;
    }
    return best;
  }
}
