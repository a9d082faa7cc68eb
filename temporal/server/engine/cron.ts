/**
 * Cron schedules for cron workflows (StartWorkflowExecution.cron_schedule), as Temporal reads
 * them: five fields (minute hour day-of-month month day-of-week) in UTC, with `*`, lists,
 * ranges, steps and names, plus @yearly/@monthly/@weekly/@daily/@hourly and `@every <dur>`.
 */
import { invalidArgument } from './errors';

interface Spec {
  every?: number;
  fields?: Set<number>[];
  domStar?: boolean;
  dowStar?: boolean;
}

/** Cron macros as five fields; schedule specs (schedules/spec.ts) read the same ones. */
export const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const NAMES: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
  sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6,
};
const RANGES: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

function parseDuration(s: string): number {
  let ms = 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;
  let m: RegExpExecArray | null;
  let seen = '';
  while ((m = re.exec(s))) {
    seen += m[0];
    const n = Number(m[1]);
    ms += n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  }
  if (seen !== s || ms <= 0) throw invalidArgument(`Invalid cron schedule: bad @every duration "${s}"`);
  return ms;
}

function parseField(text: string, i: number): Set<number> {
  const [lo, hi] = RANGES[i];
  const out = new Set<number>();
  const num = (t: string): number => {
    const v = NAMES[t.toLowerCase()] ?? Number(t);
    if (!Number.isInteger(v) || v < lo || v > hi) throw invalidArgument(`Invalid cron schedule: "${t}" is out of range`);
    return v;
  };
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw invalidArgument(`Invalid cron schedule: bad step in "${part}"`);
    let a = lo;
    let b = hi;
    if (range !== '*' && range !== '?') {
      const [x, y] = range.split('-');
      a = num(x);
      b = y === undefined ? (stepText === undefined ? a : hi) : num(y);
    }
    for (let v = a; v <= b; v += step) out.add(i === 4 && v === 7 ? 0 : v);
  }
  return out;
}

export function parseCron(expr: string): Spec {
  const e = expr.trim();
  if (e.startsWith('@every ')) return { every: parseDuration(e.slice(7).trim()) };
  const fields = (MACROS[e] ?? e).split(/\s+/);
  if (fields.length !== 5) throw invalidArgument(`Invalid cron schedule "${expr}": expected 5 fields`);
  return {
    fields: fields.map(parseField),
    domStar: fields[2] === '*' || fields[2] === '?',
    dowStar: fields[4] === '*' || fields[4] === '?',
  };
}

/** The first tick strictly after `after` (ms since epoch). */
export function nextCronTick(expr: string, after: number): number {
  const spec = parseCron(expr);
  if (spec.every) return (Math.floor(after / spec.every) + 1) * spec.every;
  const [min, hour, dom, mon, dow] = spec.fields!;
  const d = new Date(Math.floor(after / 60_000) * 60_000 + 60_000);
  for (let i = 0; i < 60 * 24 * 366 * 5; i++) {
    const dayOk =
      spec.domStar && spec.dowStar
        ? true
        : spec.domStar
          ? dow.has(d.getUTCDay())
          : spec.dowStar
            ? dom.has(d.getUTCDate())
            : dom.has(d.getUTCDate()) || dow.has(d.getUTCDay());
    if (mon.has(d.getUTCMonth() + 1) && dayOk && hour.has(d.getUTCHours()) && min.has(d.getUTCMinutes())) return d.getTime();
    d.setTime(d.getTime() + 60_000);
  }
  throw invalidArgument(`Invalid cron schedule "${expr}": it never fires`);
}
