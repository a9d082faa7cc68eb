/**
 * Schedule specs as Temporal reads them (service/worker/scheduler: spec.go, calendar.go): calendar
 * strings and cron strings are turned into structured calendars once, when a schedule is created or
 * updated (that canonical spec is what describe answers); calendar.ts finds when it fires. As in
 * Temporal, a calendar matches a day only when both its day of month and its day of week match:
 * cron workflows (engine/cron.ts) read their cron string the Unix way, where either matches, so
 * the two parsers differ as Temporal's do. Jitter is kept in the spec but not applied: every action
 * fires at its nominal time.
 */
import { api, durMs, msDur } from '../proto';
import { MACROS } from '../engine/cron';
import { Field, FIELD_NAMES, MAX_YEAR, MIN_YEAR, SpecError, zone } from './calendar';

type Spec = api.schedule.v1.IScheduleSpec;
type Calendar = api.schedule.v1.IStructuredCalendarSpec;
type Range = api.schedule.v1.IRange;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

type Mode = 'int' | 'year' | 'month' | 'dow';
/** Per field: its name in errors, its bounds, the default of a calendar string, how names parse. */
const FIELDS: [Field, string, number, number, string, Mode][] = [
  ['second', 'Second', 0, 59, '0', 'int'],
  ['minute', 'Minute', 0, 59, '0', 'int'],
  ['hour', 'Hour', 0, 23, '0', 'int'],
  ['dayOfMonth', 'DayOfMonth', 1, 31, '*', 'int'],
  ['month', 'Month', 1, 12, '*', 'month'],
  ['dayOfWeek', 'DayOfWeek', 0, 7, '*', 'dow'],
  ['year', 'Year', MIN_YEAR, MAX_YEAR, '*', 'year'],
];

/** The spec with calendars and cron strings turned into structured calendars, validated. */
export function canonicalSpec(spec: Spec | null | undefined): Spec {
  const s = spec ?? {};
  const structured = [...(s.structuredCalendar ?? [])];
  const excluded = [...(s.excludeStructuredCalendar ?? [])];
  const intervals = [...(s.interval ?? [])];
  for (const c of s.calendar ?? []) structured.push(parseCalendar(c));
  for (const c of s.excludeCalendar ?? []) excluded.push(parseCalendar(c));
  let cronTz: string | undefined;
  for (const text of s.cronString ?? []) {
    const cron = parseCron(text);
    if (cronTz !== undefined && cron.tz !== cronTz) throw new SpecError('conflicting timezone names');
    cronTz = cron.tz;
    if (cron.calendar) structured.push(cron.calendar);
    if (cron.interval) intervals.push(cron.interval);
  }
  let timezoneName = s.timezoneName ?? '';
  if (cronTz) {
    if (timezoneName && timezoneName !== cronTz) throw new SpecError('conflicting timezone names');
    timezoneName = cronTz;
  }
  for (const c of [...structured, ...excluded]) validateCalendar(c);
  for (const iv of intervals) validateInterval(iv);
  zone(timezoneName); // refuses an unknown name now rather than at the first tick
  return {
    structuredCalendar: structured.map(cleanCalendar),
    excludeStructuredCalendar: excluded.map(cleanCalendar),
    interval: intervals,
    startTime: s.startTime,
    endTime: s.endTime,
    jitter: s.jitter,
    timezoneName,
  };
}

function parseCalendar(c: api.schedule.v1.ICalendarSpec): Calendar {
  const errors: string[] = [];
  const out: Calendar = { comment: c.comment ?? '' };
  for (const [field, name, min, max, def, mode] of FIELDS) {
    try {
      out[field] = parseRanges((c as Record<Field, string | null | undefined>)[field] ?? '', name, def, min, max, mode);
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  if (errors.length) throw new SpecError(errors.join(', '));
  return out;
}

function parseCron(text: string): { calendar?: Calendar; interval?: api.schedule.v1.IIntervalSpec; tz: string } {
  let c = text.trim();
  let tz = '';
  if (c.startsWith('TZ=') || c.startsWith('CRON_TZ=')) {
    const i = c.indexOf(' ');
    if (i < 0) throw new SpecError('CronString has time zone but missing fields');
    tz = c.slice(c.indexOf('=') + 1, i);
    c = c.slice(i + 1);
  }
  const hash = c.indexOf('#');
  const comment = hash >= 0 ? c.slice(hash + 1).trim() : '';
  c = (hash >= 0 ? c.slice(0, hash) : c).trim();
  if (c.startsWith('@every')) {
    const [every, phase] = c.slice(6).trim().split('/');
    if (!every) throw new SpecError('CronString does not have interval after @every');
    return { interval: { interval: msDur(parseDuration(every)), phase: phase ? msDur(parseDuration(phase)) : undefined }, tz };
  }
  const f = (MACROS[c] ?? c).split(/\s+/).filter(Boolean);
  const cal: api.schedule.v1.ICalendarSpec = { comment };
  if (f.length === 5) [cal.minute, cal.hour, cal.dayOfMonth, cal.month, cal.dayOfWeek] = f;
  else if (f.length === 6) [cal.minute, cal.hour, cal.dayOfMonth, cal.month, cal.dayOfWeek, cal.year] = f;
  else if (f.length === 7) [cal.second, cal.minute, cal.hour, cal.dayOfMonth, cal.month, cal.dayOfWeek, cal.year] = f;
  else throw new SpecError('CronString does not have 5-7 fields');
  return { calendar: parseCalendar(cal), tz };
}

/** `*`, `x`, `x-z`, `x-z/y`, `x/y` and comma lists of them; names for months and days of week. */
function parseRanges(text: string, field: string, def: string, min: number, max: number, mode: Mode): Range[] {
  const s = text.trim() || def;
  if (s === '*' && mode === 'year') return []; // every year is the empty list
  const out: Range[] = [];
  for (let part of s.split(',')) {
    let step = 1;
    let hasStep = false;
    const slashes = part.split('/').length - 1;
    if (slashes > 1) throw new SpecError(`${field} has too many slashes`);
    if (slashes === 1) {
      const [p, st] = part.split('/');
      if (!st) throw new SpecError(`${field} missing step value`);
      step = integer(st);
      if (!(step >= 1)) throw new SpecError(`${field} has invalid Step`);
      part = p;
      hasStep = true;
    }
    let start = min;
    let end = max;
    if (part !== '*') {
      if (part.includes('-')) {
        const pieces = part.split('-');
        if (pieces.length > 2) throw new SpecError(`${field} has too many dashes`);
        start = value(pieces[0], min, max, mode, `${field} Start is not in range [${min}-${max}]`);
        end = value(pieces[1], start, max, mode, `${field} End is before Start or not in range [${min}-${max}]`);
      } else {
        start = value(part, min, max, mode, `${field} is not in range [${min}-${max}]`);
        if (!hasStep) end = start; // `x/y` runs to the maximum, a bare `x` is one value
      }
    }
    if (mode === 'dow' && end === 7) {
      // 7 is Sunday as well as 0: keep it as a 0 where the range would have reached it.
      if ((7 - start) % step === 0 && (step > 1 || start > 1)) {
        out.push({ start: 0, end: 0, step: 1 });
        if (start === 7) continue;
      }
      end = 6;
    }
    out.push({ start, end, step });
  }
  return out;
}

function value(text: string, min: number, max: number, mode: Mode, error: string): number {
  const t = text.toLowerCase();
  const names = mode === 'month' && t.length >= 3 ? MONTHS : mode === 'dow' && t.length >= 2 ? DAYS : undefined;
  const named = names?.findIndex((n) => n.startsWith(t)) ?? -1;
  const v = named >= 0 ? (mode === 'month' ? named + 1 : named) : integer(text);
  if (!(v >= min && v <= max)) throw new SpecError(error);
  return v;
}

function integer(text: string): number {
  return /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
}

function validateCalendar(c: Calendar): void {
  const errors: string[] = [];
  for (const [field, name, min, maxIn] of FIELDS) {
    const max = field === 'dayOfWeek' ? 6 : maxIn;
    for (const r of c[field] ?? []) {
      const start = r.start ?? 0;
      const end = r.end ?? 0;
      if (start < min || start > max) errors.push(`${name} Start is not in range [${min}-${max}]`);
      if (end !== 0 && (end < start || end > max)) errors.push(`${name} End is before Start or not in range [${min}-${max}]`);
      if ((r.step ?? 0) < 0) errors.push(`${name} has invalid Step`);
    }
  }
  if ((c.comment ?? '').length > 200) errors.push('comment is too long');
  if (errors.length) throw new SpecError(`invalid calendar spec: ${errors.join(', ')}`);
}

function validateInterval(iv: api.schedule.v1.IIntervalSpec): void {
  const every = durMs(iv.interval) ?? 0;
  const phase = durMs(iv.phase) ?? 0;
  if (every < 1000) throw new SpecError('interval is too small');
  if (phase >= every) throw new SpecError('phase cannot be greater than Interval');
}

/** What describe shows (Temporal's CleanSpec): every range with its end and step filled in. */
function cleanCalendar(c: Calendar): Calendar {
  const out: Calendar = { comment: c.comment ?? '' };
  for (const field of FIELD_NAMES) {
    out[field] = (c[field] ?? []).map((r) => ({ start: r.start ?? 0, end: Math.max(r.end ?? 0, r.start ?? 0), step: r.step || 1 }));
  }
  return out;
}

/** Go durations plus days (`90s`, `1h30m`, `2d`), as Temporal's `@every` takes them. */
function parseDuration(text: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d))+$/.test(text)) throw new SpecError(`time: invalid duration "${text}"`);
  let ms = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/g)) ms += Number(m[1]) * units[m[2]];
  return ms;
}
