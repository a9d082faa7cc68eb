// A plan's schedule (docs/communications.md "Plans"): the ticks of its cron `frequency`, in UTC,
// between start_date and end_date (both inclusive), after it was posted.
import { CronExpressionParser } from 'cron-parser';

/** Why a frequency is refused, or null when it is a cron expression of 5 fields, or 6 with seconds. */
export function frequencyProblem(frequency: string): string | null {
  const fields = frequency.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return `a cron expression of 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; got ${fields.length}`;
  }
  try {
    CronExpressionParser.parse(frequency, { tz: 'UTC' });
    return null;
  } catch (err) {
    return `not a cron expression: ${(err as Error).message}`;
  }
}

export interface PlanTiming {
  frequency: string;
  startDate: Date;
  endDate: Date | null;
  /** When the plan was posted, or its schedule last changed: earlier ticks are not sent. */
  scheduledFrom: Date;
}

export interface ScheduleState {
  /** The latest tick not yet sent that is due by `now`, epoch ms (missed ticks collapse into it). */
  due: number | null;
  /** The first tick after `now`, epoch ms; null when the plan has no more. */
  next: number | null;
}

/** Ticks count after max(lastTick, scheduledFrom, just before start_date) and up to end_date. */
export function planSchedule(plan: PlanTiming, lastTick: number | null, now: number): ScheduleState {
  const floor = Math.max(lastTick ?? -Infinity, plan.scheduledFrom.getTime(), plan.startDate.getTime() - 1);
  const end = plan.endDate?.getTime() ?? Infinity;
  const upTo = Math.min(now, end);
  let due: number | null = null;
  if (upTo > floor) {
    // prev() is the latest tick strictly before its current date.
    const latest = CronExpressionParser.parse(plan.frequency, { tz: 'UTC', currentDate: new Date(upTo + 1) }).prev().getTime();
    if (latest > floor) due = latest;
  }
  const after = Math.max(now, floor);
  const next = CronExpressionParser.parse(plan.frequency, { tz: 'UTC', currentDate: new Date(after) }).next().getTime();
  return { due, next: next <= end ? next : null };
}

/**
 * Whether two ticks of `frequency` ever come closer than `minutes` (looked at over the next year,
 * or its next 1,000 ticks): a plan a public key writes must not (docs/communications.md "Quotas").
 */
export function ticksCloserThan(frequency: string, minutes: number, from = Date.now()): boolean {
  const ticks = CronExpressionParser.parse(frequency, { tz: 'UTC', currentDate: new Date(from) });
  const until = from + 366 * 86_400_000;
  let previous = ticks.next().getTime();
  for (let i = 0; i < 1000 && previous < until; i++) {
    if (!ticks.hasNext()) return false;
    const next = ticks.next().getTime();
    if (next - previous < minutes * 60_000) return true;
    previous = next;
  }
  return false;
}
