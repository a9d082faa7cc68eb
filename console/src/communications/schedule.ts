// A plan's schedule in the browser, with the service's own rules (src/domain/communications/
// schedule.ts): the same cron-parser version and options (the frequency in UTC, 5 fields or 6
// with seconds first, macros refused), ticks from the start date (inclusive) to the end date
// (inclusive). What the API computes itself (a POSTED plan's next_tick_on) is shown as the API's.
import { CronExpressionParser } from 'cron-parser';

/** Why the API would refuse a frequency, or null when it accepts it (frequencyProblem of the service). */
export function frequencyProblem(frequency: string): string | null {
  const text = frequency.trim();
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length !== 5 && fields.length !== 6) {
    return `a cron expression of 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; got ${fields.length}`;
  }
  try {
    CronExpressionParser.parse(text, { tz: 'UTC' });
    return null;
  } catch (err) {
    return `not a cron expression: ${(err as Error).message}`;
  }
}

/**
 * The first `count` ticks (epoch ms) after `from` and from `start` on, up to `end`; as the service
 * counts them once the plan is posted (planSchedule: the start itself counts).
 */
export function nextTicks(frequency: string, start: number, end: number | null, from: number, count = 5): number[] {
  if (frequencyProblem(frequency) !== null) return [];
  const after = Math.max(from, start - 1);
  const ticks = CronExpressionParser.parse(frequency.trim(), { tz: 'UTC', currentDate: new Date(after) });
  const out: number[] = [];
  while (out.length < count) {
    const tick = ticks.next().getTime();
    if (end !== null && tick > end) break;
    out.push(tick);
  }
  return out;
}

/** A few frequencies to start from, in UTC as the API reads them. */
export const PRESETS = [
  { value: '0 9 * * *', label: 'Every day at 09:00 UTC' },
  { value: '0 9 * * 1', label: 'Every Monday at 09:00 UTC' },
  { value: '0 9 1 * *', label: 'The 1st of every month at 09:00 UTC' },
  { value: '0 */6 * * *', label: 'Every 6 hours' },
];
