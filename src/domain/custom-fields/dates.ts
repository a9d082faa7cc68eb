// A DATE custom field's one stored and answered form (docs/custom-fields.md "DATE values"): the
// epoch seconds of its day at 00:00 UTC, like every other date of the API (spec 1: dates are epoch
// integers). Writers may send the day as YYYY-MM-DD or as epoch seconds.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// Digits, as a JSON integer arrives once the body schema has made it text; a day before 1970 is
// negative, so a value answered can always be written back.
const EPOCH = /^-?\d{1,12}$/;
const DAY_SECONDS = 86_400;
// 0000-01-01 and 9999-12-31 at 00:00 UTC: the days YYYY-MM-DD can name.
const FIRST_DAY = -62_167_219_200;
const LAST_DAY = 253_402_214_400;

/**
 * The midnight-UTC epoch of a DATE value, or undefined when it is not one. YYYY-MM-DD must be a
 * real calendar day (2024-02-30 is not); an epoch that is not midnight UTC means the UTC day it
 * falls in (1700000000, 2023-11-14T22:13:20Z, is 1699920000).
 */
export function dayEpoch(value: string): number | undefined {
  const day = DAY.exec(value);
  if (day) return calendarDay(Number(day[1]), Number(day[2]), Number(day[3]));
  if (!EPOCH.test(value)) return undefined;
  const midnight = Math.floor(Number(value) / DAY_SECONDS) * DAY_SECONDS;
  return midnight >= FIRST_DAY && midnight <= LAST_DAY ? midnight : undefined;
}

/** The day's midnight-UTC epoch if year-month-day is a calendar day. */
function calendarDay(year: number, month: number, day: number): number | undefined {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date.getTime() / 1000 : undefined;
}
