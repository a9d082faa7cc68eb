/** Parsing of the literal formats Temporal accepts in list filters. Each returns undefined when invalid. */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** RFC3339 (with optional fraction, to nanoseconds) → epoch milliseconds; fractions below 1 ms are dropped. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const base = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), ms);
  // Date.UTC rolls 31 Feb over into March; reject instead of guessing.
  if (new Date(base).getUTCDate() !== day) return undefined;
  const offsetMinutes = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (!m[8] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return undefined;
  return base - offsetMinutes * 60_000;
}

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go duration ('1h30m', '1.5s', '250ms') or 'hh:mm:ss' → nanoseconds, as ExecutionDuration accepts. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  const clock = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(t);
  if (clock) return ((Number(clock[1]) * 60 + Number(clock[2])) * 60 + Number(clock[3])) * 1e9;
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(t)) return undefined;
  let total = 0;
  for (const part of t.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * UNIT_NS[part[2]];
  return total;
}

/** A decoded datetime attribute value → epoch ms (Date, RFC3339 string, or epoch ms number). */
export function datetimeValue(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'string') return parseRfc3339(value);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return undefined;
}

export function numberValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function boolValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

/** Words for Text matching: lower-cased runs of letters and digits, like a standard analyzer. */
export function textTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
